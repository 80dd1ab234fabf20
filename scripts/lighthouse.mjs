#!/usr/bin/env node
// Lighthouse (mobile, default config) over every page type in English and Japanese.
//
//   node scripts/lighthouse.mjs http://127.0.0.1:PORT
//
// Prints a table (URL, performance, accessibility, best practices, SEO, script bytes transferred)
// and every audit that scored below 1, with enough detail to fix it. It is a benchmark, not a
// test: it exits non-zero only when Lighthouse or Chrome fails, never on a score.
// Env: CHROME_PATH (default /usr/bin/chromium), LH_LOCALES (default "en,jp"),
// LH_PAGES (comma-separated page paths; default: every page in internal/site/site.json),
// LH_SAVE (a directory: also write each full report there as JSON, for the details).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const site = JSON.parse(readFileSync(join(root, 'internal/site/site.json'), 'utf8'));

const base = (process.argv[2] || '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node scripts/lighthouse.mjs http://127.0.0.1:PORT');
  process.exit(2);
}

const chromium = JSON.parse(readFileSync(join(root, 'scripts/chromium.json'), 'utf8'));
const chromePath = process.env.CHROME_PATH || chromium.path;
const chromeFlags = chromium.flags;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const short = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'bp', seo: 'seo' };

const locales = (process.env.LH_LOCALES || 'en,jp').split(',').map((s) => s.trim()).filter(Boolean);
const pagePaths = process.env.LH_PAGES
  ? process.env.LH_PAGES.split(',').map((s) => s.trim()).filter(Boolean)
  : site.pages.map((p) => p.path);

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
for (const code of locales) {
  for (const path of pagePaths) {
    const url = pageURL(code, path);
    const t0 = Date.now();
    try {
      const lhr = await runWithRetry(url);
      if (process.env.LH_SAVE) {
        mkdirSync(process.env.LH_SAVE, { recursive: true });
        const name = (code + path).replace(/[^a-z0-9]+/gi, '_').replace(/_$/, '') + '.json';
        writeFileSync(join(process.env.LH_SAVE, name), JSON.stringify(lhr));
      }
      const s = Object.fromEntries(categories.map((c) => [c, lhr.categories[c]?.score]));
      const row = { url, ...s, js: scriptBytes(lhr), final: lhr.finalDisplayedUrl };
      rows.push(row);
      for (const f of failing(lhr)) problems.push({ url, ...f });
      const fmt = (v) => (v == null ? '-' : Math.round(v * 100));
      console.error(
        `lighthouse: ${url} ${categories.map((c) => `${short[c]}=${fmt(s[c])}`).join(' ')} ` +
          `(${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
      if (row.final && row.final !== url) console.error(`lighthouse:   note: final URL ${row.final}`);
    } catch (err) {
      crashed = true;
      console.error(`lighthouse: ${url} FAILED: ${err && err.stack ? err.stack : err}`);
      rows.push({ url, error: true });
    }
  }
}

// The table.
const w = Math.max(30, ...rows.map((r) => r.url.length)) + 2;
console.log('');
console.log(`Lighthouse ${'mobile (default config)'}: ${rows.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(pad('URL', w) + ['perf', 'a11y', 'bp', 'seo'].map((h) => lpad(h, 6)).join('') + lpad('script bytes', 14));
for (const r of rows) {
  if (r.error) {
    console.log(pad(r.url, w) + '  (run failed)');
    continue;
  }
  const cells = categories.map((c) => lpad(r[c] == null ? '-' : Math.round(r[c] * 100), 6)).join('');
  console.log(pad(r.url, w) + cells + lpad(r.js, 14));
}

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
