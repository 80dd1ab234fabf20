#!/usr/bin/env node
// Lighthouse (mobile, default config) over every page in every language (56 pages).
//
//   node scripts/bench/04-lighthouse/lighthouse.mjs http://127.0.0.1:PORT
//
// Prints a table per run (URL, performance, accessibility, best practices, SEO, Total Blocking
// Time, script bytes transferred), every audit that scored below 1 with enough detail to fix it,
// and a summary: the lowest score per category and the longest TBT of a tool page, per run and
// over all runs (the goal: 100 everywhere, three runs in a row; TBT at most 50 ms). It is a
// benchmark, not a test: it exits non-zero only when Lighthouse or Chrome fails, never on a score.
// Env: CHROME_PATH (default: scripts/tools/chromium.json), LH_LOCALES (default: every locale),
// LH_PAGES (comma-separated page paths; default: every page in internal/site/site.json),
// LH_RUNS (runs over all the pages, one after another; default 1),
// LH_SAVE (a directory: also write each full report there as JSON, for the details).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const site = JSON.parse(readFileSync(join(root, 'internal/site/site.json'), 'utf8'));

const base = (process.argv[2] || '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node scripts/bench/04-lighthouse/lighthouse.mjs http://127.0.0.1:PORT');
  process.exit(2);
}

const chromium = JSON.parse(readFileSync(join(root, 'scripts/tools/chromium.json'), 'utf8'));
const chromePath = process.env.CHROME_PATH || chromium.path;
const chromeFlags = chromium.flags;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const short = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'bp', seo: 'seo' };

const locales = (process.env.LH_LOCALES || site.locales.map((l) => l.code).join(',')).split(',').map((s) => s.trim()).filter(Boolean);
const pagePaths = process.env.LH_PAGES
  ? process.env.LH_PAGES.split(',').map((s) => s.trim()).filter(Boolean)
  : site.pages.map((p) => p.path);
const toolPaths = new Set(site.pages.filter((p) => p.nav === 'tool').map((p) => p.path));
const runs = Math.max(1, Number(process.env.LH_RUNS) || 1);

// The URL of a page in a locale: the default locale has no prefix; home in another locale is /{code}.
function pageURL(code, path) {
  if (code === site.defaultLocale) return base + path;
  return base + '/' + code + (path === '/' ? '' : path);
}

// Script bytes the page transferred (compressed, headers included), from the network log.
function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  let sum = 0;
  for (const it of items) if (it.resourceType === 'Script') sum += it.transferSize || 0;
  return sum;
}

// A short description of an audit's failing items (nodes, URLs, values), at most `max` of them.
function describeItems(audit, max = 5) {
  const d = audit.details;
  if (!d || !Array.isArray(d.items)) return [];
  // Insights nest their tables in a list; a network tree has nothing short to say.
  const items = d.type === 'list' ? d.items.flatMap((x) => (x && x.type === 'table' ? x.items : [])) : d.items;
  const out = [];
  for (const it of items.slice(0, max)) {
    const parts = [];
    const node = it.node && it.node.type === 'node' ? it.node : null;
    if (node) {
      if (node.selector) parts.push(node.selector);
      if (node.snippet) parts.push(node.snippet.length > 160 ? node.snippet.slice(0, 160) + '…' : node.snippet);
      if (node.explanation) parts.push(node.explanation.replace(/\s+/g, ' '));
    }
    for (const k of ['url', 'source', 'label', 'href', 'text', 'failureReason', 'reason', 'value', 'reflowTime', 'wastedBytes', 'wastedMs']) {
      const v = it[k];
      if (v == null || typeof v === 'object') {
        if (v && v.type === 'source-location' && v.url) parts.push(`${v.url}:${v.line}:${v.column}`);
        else if (v && (v.type === 'text' || v.type === 'code') && v.value != null) parts.push(`${k}=${v.value}`);
        continue;
      }
      parts.push(`${k}=${String(v).slice(0, 200)}`);
    }
    if (parts.length) out.push(parts.join(' | '));
  }
  if (items.length > max) out.push(`… ${items.length - max} more`);
  return out;
}

// Audits below 1 in a category (the ones that count: binary or numeric, not informative/manual).
function failing(lhr) {
  const seen = new Map();
  for (const cat of categories) {
    for (const ref of lhr.categories[cat]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 1) continue;
      if (['informative', 'manual', 'notApplicable', 'error'].includes(a.scoreDisplayMode)) continue;
      const prev = seen.get(a.id);
      if (prev) { prev.cats.push(short[cat]); prev.weight = Math.max(prev.weight, ref.weight); }
      else seen.set(a.id, { audit: a, cats: [short[cat]], weight: ref.weight });
    }
  }
  return [...seen.values()];
}

// Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP…) and asks to run it
// again: one retry before counting the page as failed.
async function runWithRetry(url) {
  try {
    return await runOneChecked(url);
  } catch (err) {
    console.error(`lighthouse: ${url} failed (${err && err.message ? err.message : err}); retrying once`);
    return runOneChecked(url);
  }
}

async function runOneChecked(url) {
  const lhr = await runOne(url);
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  return lhr;
}

async function runOne(url) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
    });
    if (!result) throw new Error('lighthouse returned no result');
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

const rows = [];
const problems = [];
let crashed = false;
const started = Date.now();
for (let run = 1; run <= runs; run++) {
  for (const code of locales) {
    for (const path of pagePaths) {
      const url = pageURL(code, path);
      const t0 = Date.now();
      try {
        const lhr = await runWithRetry(url);
        if (process.env.LH_SAVE) {
          const dir = runs > 1 ? join(process.env.LH_SAVE, String(run)) : process.env.LH_SAVE;
          mkdirSync(dir, { recursive: true });
          const name = (code + path).replace(/[^a-z0-9]+/gi, '_').replace(/_$/, '') + '.json';
          writeFileSync(join(dir, name), JSON.stringify(lhr));
        }
        const s = Object.fromEntries(categories.map((c) => [c, lhr.categories[c]?.score]));
        const tbt = lhr.audits['total-blocking-time']?.numericValue;
        const row = { run, url, tool: toolPaths.has(path), ...s, tbt, js: scriptBytes(lhr), final: lhr.finalDisplayedUrl };
        rows.push(row);
        for (const f of failing(lhr)) problems.push({ url: runs > 1 ? `${url} (run ${run})` : url, ...f });
        const fmt = (v) => (v == null ? '-' : Math.round(v * 100));
        console.error(
          `lighthouse: ${runs > 1 ? `run ${run}: ` : ''}${url} ${categories.map((c) => `${short[c]}=${fmt(s[c])}`).join(' ')} ` +
            `tbt=${tbt == null ? '-' : Math.round(tbt)} ms (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
        );
        if (row.final && row.final !== url) console.error(`lighthouse:   note: final URL ${row.final}`);
      } catch (err) {
        crashed = true;
        console.error(`lighthouse: ${url} FAILED: ${err && err.stack ? err.stack : err}`);
        rows.push({ run, url, error: true });
      }
    }
  }
}

// The table.
const w = Math.max(30, ...rows.map((r) => r.url.length)) + 2;
console.log('');
console.log(
  `Lighthouse mobile (default config): ${rows.length / runs} pages, ${runs} run(s), ` +
    `in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
const score = (v) => (v == null ? '-' : Math.round(v * 100));
for (let run = 1; run <= runs; run++) {
  if (runs > 1) console.log(`run ${run}:`);
  console.log(pad('URL', w) + ['perf', 'a11y', 'bp', 'seo', 'TBT ms'].map((h) => lpad(h, 7)).join('') + lpad('script bytes', 14));
  for (const r of rows.filter((x) => x.run === run)) {
    if (r.error) {
      console.log(pad(r.url, w) + '  (run failed)');
      continue;
    }
    const cells = categories.map((c) => lpad(score(r[c]), 7)).join('') + lpad(r.tbt == null ? '-' : Math.round(r.tbt), 7);
    console.log(pad(r.url, w) + cells + lpad(r.js, 14));
  }
}

// The summary: the lowest score per category and the longest TBT of a tool page, per run.
console.log('');
console.log('Lowest score per category (goal: 100), longest TBT of a tool page (goal: at most 50 ms):');
const summarize = (label, list) => {
  const ok = list.filter((r) => !r.error);
  const lowest = categories.map((c) => `${short[c]} ${score(Math.min(...ok.map((r) => r[c] ?? 0)))}`).join(', ');
  const tools = ok.filter((r) => r.tool && r.tbt != null);
  const tbt = tools.length ? `${Math.round(Math.max(...tools.map((r) => r.tbt)))} ms` : '-';
  const all100 = ok.filter((r) => categories.every((c) => r[c] === 1)).length;
  const failed = list.length - ok.length;
  console.log(
    `  ${label}: ${lowest}; tool-page TBT at most ${tbt}; ${all100} of ${list.length} pages at 100 in all four` +
      (failed ? `; ${failed} failed` : ''),
  );
};
for (let run = 1; run <= runs; run++) summarize(runs > 1 ? `run ${run}` : 'all', rows.filter((r) => r.run === run));
if (runs > 1) summarize('all runs', rows);

// Audits below 1, grouped by audit so a developer sees each problem once with the pages it hits.
console.log('');
if (problems.length === 0) {
  console.log('Audits below 1: none');
} else {
  console.log('Audits below 1 (id [categories]: title, then each page with its score):');
  const byId = new Map();
  for (const p of problems) {
    const g = byId.get(p.audit.id) || { ...p, pages: [] };
    g.pages.push({ url: p.url, score: p.audit.score, display: p.audit.displayValue, audit: p.audit });
    byId.set(p.audit.id, g);
  }
  for (const g of byId.values()) {
    const w = g.weight ? '' : ' (weight 0: does not move the score)';
    console.log(`- ${g.audit.id} [${g.cats.join(',')}]${w}: ${g.audit.title}`);
    for (const pg of g.pages) {
      const score = pg.score == null ? '-' : pg.score.toFixed(2);
      console.log(`    ${pg.url}  score ${score}${pg.display ? `  (${pg.display})` : ''}`);
    }
    // Details from the first page it hits (usually the same across pages of a shared layout).
    for (const line of describeItems(g.pages[0].audit)) console.log(`      · ${line}`);
  }
}

process.exit(crashed ? 1 : 0);
