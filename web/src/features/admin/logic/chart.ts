// The scales of the daily chart: a y axis with round ticks, and which days get a label on the
// x axis. Pure numbers; DailyChart.tsx draws them.

/** Round steps, times a power of ten. */
const steps = [1, 2, 2.5, 5, 10];

/** Ticks from 0 to a round top at or above `max`, at most `most` intervals (at least 1). */
export function yTicks(max: number, most = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / most;
  const power = 10 ** Math.floor(Math.log10(rough));
  // Counts are whole: a step below 1 would label 0.25 views.
  const step = Math.max(1, (steps.find((s) => s * power >= rough && Number.isInteger(s * power)) ?? 10) * power);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(v);
  return ticks;
}

/**
 * Indexes of the days to label under the chart: the first and the last, and evenly spaced ones
 * between them, at most `most` in all, so that labels never crowd.
 */
export function xLabels(days: number, most = 6): number[] {
  if (days <= 0) return [];
  if (days <= most) return Array.from({ length: days }, (_, i) => i);
  const out = new Set<number>();
  for (let k = 0; k < most; k++) out.add(Math.round((k * (days - 1)) / (most - 1)));
  return [...out];
}

/** The busiest day's index (the first of equals), or -1 for no days. */
export function busiest(values: readonly number[]): number {
  let best = -1;
  values.forEach((v, i) => {
    if (best === -1 || v > values[best]) best = i;
  });
  return best;
}
