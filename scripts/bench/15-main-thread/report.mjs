// Part 15's report: per page the medians of its runs, the reference load's floor, the variants,
// the worst pages and the goal's verdict (issue 29: no main-thread task above 50 ms on any page,
// CLS 0 everywhere).
import { blockingAfter, median } from './trace.mjs';

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const ms = (v) => (Number.isFinite(v) ? v.toFixed(0) : '-');

/** Per-key figures over the runs: medians, minima, the worst CLS. */
function figures(entry) {
  const s = entry.samples;
  const of = (k) => s.map((x) => x[k]);
  return {
    key: entry.load.key,
    group: entry.load.group,
    n: s.length,
    errors: entry.errors.length,
    longest: median(of('longest')),
    longestMin: Math.min(...of('longest')),
    longestMax: Math.max(...of('longest')),
    over: median(of('over')),
    overMin: Math.min(...of('over')),
    cls: Math.max(0, ...of('cls')),
    shifts: s.flatMap((x) => x.shifts),
    jsLoad: median(of('jsAtLoad')),
    js: median(of('jsBytes')),
    scripts: median(of('scripts')),
    quiet: median(of('quietMs')),
    capped: s.filter((x) => x.capped).length,
    // what the median run's longest task was made of
    parts: [...s].sort((a, b) => a.longest - b.longest)[(s.length - 1) >> 1]?.parts ?? '',
    final: [...new Set(s.map((x) => new URL(x.finalUrl).pathname))].join(' '),
    api: [...new Set(s.flatMap((x) => x.api))].join(', '),
  };
}

function table(rows, withFinal) {
  const w = Math.max(24, ...rows.map((r) => r.key.length)) + 2;
  console.log(pad('page', w) + lpad('longest ms', 16) + lpad('Σ>50 ms', 16) + lpad('CLS max', 9) + lpad('JS KB load/all', 16) + lpad('quiet s', 9) + (withFinal ? '  final URL' : ''));
  for (const r of rows) {
    if (r.n === 0) {
      console.log(pad(r.key, w) + `  (every run failed: ${r.errors})`);
      continue;
    }
    const cells =
      lpad(`${ms(r.longest)} (${ms(r.longestMin)})`, 16) +
      lpad(`${ms(r.over)} (${ms(r.overMin)})`, 16) +
      lpad(r.cls.toFixed(3), 9) +
      lpad(`${(r.jsLoad / 1024).toFixed(1)} / ${(r.js / 1024).toFixed(1)}`, 16) +
      lpad((r.quiet / 1000).toFixed(1), 9);
    const notes = [r.capped ? `capped ${r.capped}×` : '', r.errors ? `${r.errors} failed` : ''].filter(Boolean).join(', ');
    console.log(pad(r.key, w) + cells + (withFinal ? `  ${r.final}` : '') + (notes ? `  (${notes})` : ''));
  }
}

/**
 * Prints the report.
 * @param {Map<string, { load: any, samples: any[], errors: string[] }>} results
 * @param {{ runs: number, cpuRate: number, seconds: number, load: number[], chromium: string }} o
 */
export function report(results, { runs, cpuRate, seconds, load, chromium }) {
  const all = [...results.values()].map(figures);
  const pages = all.filter((r) => r.group === 'page');
  const variants = all.filter((r) => r.group !== 'page' && r.group !== 'reference');
  const ref = all.find((r) => r.group === 'reference');
  console.log('');
  console.log(
    `Main thread at load: ${pages.length} pages, ${runs} run(s), ${cpuRate}× CPU throttling, Chromium ${chromium}, ` +
      `in ${seconds.toFixed(0)} s (load average ${load[0].toFixed(1)} at the start, ${load[1].toFixed(1)} at the end)`,
  );
  console.log(`Per page: the median of its runs (the min in brackets) of the longest task and of Σ max(0, task − ${blockingAfter} ms) on`);
  console.log('the renderer main thread from navigation to quiet; the worst CLS; script KB transferred (requested before the load event / by quiet); quiet at:');
  table(pages, false);
  if (ref && ref.n) {
    console.log('');
    console.log(
      `Reference (static HTML, no script; ${ref.n} loads spread over the run): longest task median ${ms(ref.longest)} ms ` +
        `(min ${ms(ref.longestMin)}, max ${ms(ref.longestMax)}), Σ>50 median ${ms(ref.over)} ms: this machine's floor now.`,
    );
  }
  if (variants.length) {
    console.log('');
    console.log('Variants (English pages: dark theme, signed in, desktop screen; / redirected), the same figures:');
    table(variants, true);
    const api = variants.filter((r) => r.group === 'signed in').map((r) => r.api).filter(Boolean);
    if (api.length) console.log(`  signed in, API calls seen: ${[...new Set(api.join(', ').split(', '))].join(', ')}`);
  }

  const measured = pages.filter((r) => r.n);
  const worst = [...measured].sort((a, b) => b.longest - a.longest);
  console.log('');
  console.log('Worst 5 pages by median longest task:');
  for (const r of worst.slice(0, 5)) {
    console.log(`  ${pad(r.key, 36)} longest ${ms(r.longest)} ms (min ${ms(r.longestMin)}), Σ>50 ${ms(r.over)} ms, CLS ${r.cls.toFixed(3)}`);
    console.log(`  ${pad('', 36)} that task (ms): ${r.parts}`);
  }
  const within = measured.filter((r) => r.longest <= blockingAfter).length;
  const always = measured.filter((r) => r.longestMax <= blockingAfter).length;
  console.log(`Pages whose median longest task is at most ${blockingAfter} ms: ${within} of ${pages.length} (in every run: ${always})`);
  const shifted = [...measured, ...variants.filter((r) => r.n)].filter((r) => r.cls > 0);
  if (shifted.length) {
    console.log('CLS above 0 (the largest shift\'s element):');
    for (const r of shifted) {
      const big = [...r.shifts].sort((a, b) => b.value - a.value)[0];
      console.log(`  ${pad(r.key, 36)} ${r.cls.toFixed(4)}  ${big ? `${big.value.toFixed(4)} ${big.node || '?'}` : ''}`);
    }
  } else console.log('CLS above 0: none');

  const misses = [];
  if (worst.length && worst[0].longest > blockingAfter) misses.push(`longest task ${ms(worst[0].longest)} ms on ${worst[0].key}, ${pages.length - within} pages above ${blockingAfter} ms`);
  if (shifted.length) misses.push(`CLS above 0 on ${shifted.length} (worst ${Math.max(...shifted.map((r) => r.cls)).toFixed(4)})`);
  const incomplete = all.some((r) => r.errors) ? ' (some loads failed: see above)' : '';
  console.log(
    `Goal (no task above ${blockingAfter} ms on any page by its median, CLS 0 everywhere): ` +
      (misses.length ? `MISS: ${misses.join('; ')}` : 'PASS') + incomplete,
  );
}
