// The dashboard's range of days: UTC calendar days written YYYY-MM-DD, as the report API takes
// them (docs/api.md, "Stats"), both ends included, kept in the page's query string so that a
// view of the dashboard is a link.

/** The longest range the server reports (analytics.MaxReportDays). */
export const maxDays = 400;
/** The range shown when the address names none: the server's default too. */
export const defaultDays = 30;
/** The shortcuts above the date fields, in days ending today. */
export const presets = [7, 30, 90, 365] as const;

export interface Range {
  from: string;
  to: string;
}

const dayMs = 86_400_000;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day of a time, YYYY-MM-DD. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Midnight UTC of a valid YYYY-MM-DD, else NaN (2026-02-30 is not a day). */
export function parseDay(day: string): number {
  if (!isoDay.test(day)) return NaN;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || dayOf(ms) !== day ? NaN : ms;
}

/** The number of days from `from` to `to`, both included. */
export const spanOf = (r: Range): number => Math.round((parseDay(r.to) - parseDay(r.from)) / dayMs) + 1;

/** The `days` days ending `today`. */
export function lastDays(days: number, today: string): Range {
  return { from: dayOf(parseDay(today) - (days - 1) * dayMs), to: today };
}

/** Every day of a valid range, oldest first. */
export function daysOf(r: Range): string[] {
  const out: string[] = [];
  for (let ms = parseDay(r.from); ms <= parseDay(r.to); ms += dayMs) out.push(dayOf(ms));
  return out;
}

export type RangeProblem = 'invalidFrom' | 'invalidTo' | 'fromAfterTo' | 'tooLong' | 'future';

/** What is wrong with a range the operator typed, or undefined when the server will take it. */
export function rangeProblem(r: Range, today: string): RangeProblem | undefined {
  if (Number.isNaN(parseDay(r.from))) return 'invalidFrom';
  if (Number.isNaN(parseDay(r.to))) return 'invalidTo';
  if (r.from > r.to) return 'fromAfterTo';
  if (r.to > today) return 'future';
  if (spanOf(r) > maxDays) return 'tooLong';
  return undefined;
}

/** The range a query string names; the default range for anything missing or invalid. */
export function rangeFromSearch(search: string, today: string): Range {
  const q = new URLSearchParams(search);
  const asked = { from: q.get('from') ?? '', to: q.get('to') ?? '' };
  if (asked.to === '') asked.to = today;
  if (asked.from === '' && !Number.isNaN(parseDay(asked.to))) asked.from = lastDays(defaultDays, asked.to).from;
  return rangeProblem(asked, today) ? lastDays(defaultDays, today) : asked;
}

/** The query string of a range: empty for the default one, so that the plain address is it. */
export function searchOf(r: Range, today: string): string {
  const d = lastDays(defaultDays, today);
  return r.from === d.from && r.to === d.to ? '' : `?${new URLSearchParams({ from: r.from, to: r.to }).toString()}`;
}

/** The preset a range is, if it is one. */
export function presetOf(r: Range, today: string): number | undefined {
  return r.to === today ? presets.find((n) => lastDays(n, today).from === r.from) : undefined;
}
