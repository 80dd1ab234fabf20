#!/usr/bin/env node
// The main thread at load (issue 29): `make bench`'s fifteenth part.
//
//   node scripts/bench/15-main-thread/bench-main-thread.mjs http://127.0.0.1:PORT
//
// Loads every page in every language (56) in headless Chromium (scripts/tools/chromium.json), each
// in a fresh browser context on Lighthouse's mobile screen (412×823 at 1.75) at 4× CPU throttling, and records a performance trace from before
// the navigation until the page is quiet (load event, then no long task for 2 s and no request
// for 0.5 s; at most BENCH_MT_CAP_S). From the trace, on the main thread of the page's renderer:
// the longest task and Σ max(0, task − 50 ms) over the whole load; from a PerformanceObserver
// injected before the page's scripts, the CLS; from the page's network events, the script bytes
// transferred. Each page BENCH_MT_RUNS times, one run over all of them after another; per page the
// medians, the min and the worst CLS. Variants, each run: the 7 English pages in the dark theme
// (prefers-color-scheme), the same signed in (an account made through the API, its token where
// the front end keeps it), on Lighthouse's desktop screen anonymous and signed in, and `/`
// redirected by Accept-Language: ja and by the language cookie.
// The reference: a static HTML page without script, served by this script, loaded the same way
// before each locale's pages: the floor of a throttled load on this machine at this moment.
// A benchmark, not a test: it exits non-zero only when the server, the browser or the trace
// reading fails; the goal's verdict is a PASS or MISS line.
// Env: BENCH_MT_RUNS (3), BENCH_MT_LOCALES, BENCH_MT_PAGES (comma-separated; default every one),
//      BENCH_MT_VARIANTS (1; 0 skips them), BENCH_MT_CAP_S (20), BENCH_MT_SAVE (a directory: each
//      trace written there), CHROME_PATH.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { cpuRate, loadOnce } from './load.mjs';
import { report } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const readJSON = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const site = readJSON('internal/site/site.json');
const api = readJSON('internal/site/api.json');
const browserConfig = readJSON('scripts/tools/chromium.json');

const base = (process.argv[2] || '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node scripts/bench/15-main-thread/bench-main-thread.mjs http://127.0.0.1:PORT');
  process.exit(2);
}
const list = (v, all) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : all);
const runs = Math.max(1, Number(process.env.BENCH_MT_RUNS) || 3);
const capMs = 1000 * (Number(process.env.BENCH_MT_CAP_S) || 20);
const variants = process.env.BENCH_MT_VARIANTS !== '0';
const saveDir = process.env.BENCH_MT_SAVE;
const locales = list(process.env.BENCH_MT_LOCALES, site.locales.map((l) => l.code));
const paths = list(process.env.BENCH_MT_PAGES, site.pages.map((p) => p.path));
const english = site.defaultLocale;

// The localStorage key of the sign-in token: web/src/ui/credentials.ts's tokenKey.
const tokenKey = 'token';
// The language cookie: internal/server/root.go's langCookieName.
const langCookie = 'i18n_redirected';

/** A page's URL: the default locale has no prefix; home in another locale is /{code}. */
const pageURL = (code, path) => (code === english ? base + path : `${base}/${code}${path === '/' ? '' : path}`);

// --- the reference page ------------------------------------------------------------------------
// About as much text as a tool page's first screen, no script, no style sheet: what a load costs
// the throttled main thread before any of the site's own work.
const prose = 'A static paragraph of plain text, long enough to wrap over several lines at a phone’s width, with nothing to run. ';
const referenceHTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>Reference</title></head><body><h1>Reference</h1>${Array.from({ length: 12 }, () => `<p>${prose.repeat(3)}</p>`).join('')}</body></html>`;
const reference = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(referenceHTML);
});
await new Promise((resolve) => reference.listen(0, '127.0.0.1', resolve));
const referenceURL = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (reference.address()).port}/`;

// --- the account for the signed-in variant -----------------------------------------------------
// Signed up through the API as the front end does it: the XSRF cookie first, its value repeated
// in the header; the token then stored in localStorage before the page's scripts run.
async function signUp() {
  const xsrf = await fetch(`${base}${api.base}/${api.paths.authXsrf}`);
  const cookie = xsrf.headers.getSetCookie().find((c) => c.startsWith(`${api.xsrf.cookie}=`))?.split(';')[0];
  if (!cookie) throw new Error(`GET ${api.paths.authXsrf} set no ${api.xsrf.cookie} cookie (${xsrf.status})`);
  const res = await fetch(`${base}${api.base}/${api.paths.authSignup}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, [api.xsrf.header]: cookie.slice(api.xsrf.cookie.length + 1) },
    body: JSON.stringify({ email: `bench-mt-${Date.now()}-${process.pid}@example.com`, password: 'correct horse battery', displayName: 'Bench Main Thread' }),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 201 || !body.token) throw new Error(`sign-up answered ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

// --- the loads ---------------------------------------------------------------------------------
const origin = new URL(base);
/** @type {{ key: string, group: string, url: string, context?: object }[]} */
const pages = locales.flatMap((code) => paths.map((path) => ({ key: pageURL(code, path).slice(base.length) || '/', group: 'page', code, url: pageURL(code, path) })));
function variantList(token) {
  const en = paths.map((path) => ({ path, url: pageURL(english, path) }));
  const storage = { cookies: [], origins: [{ origin: origin.origin, localStorage: [{ name: tokenKey, value: token }] }] };
  return [
    ...en.map(({ path, url }) => ({ key: `${path} dark`, group: 'dark', url, context: { colorScheme: 'dark' } })),
    ...en.map(({ path, url }) => ({ key: `${path} signed in`, group: 'signed in', url, context: { storageState: storage } })),
    ...en.map(({ path, url }) => ({ key: `${path} desktop`, group: 'desktop', url, context: desktop })),
    ...en.map(({ path, url }) => ({ key: `${path} desktop signed in`, group: 'signed in', url, context: { ...desktop, storageState: storage } })),
    { key: '/ Accept-Language: ja', group: 'redirect', url: `${base}/`, context: { locale: 'ja-JP' } },
    { key: `/ cookie ${langCookie}=de`, group: 'redirect', url: `${base}/`, context: { storageState: { cookies: [{ name: langCookie, value: 'de', domain: origin.hostname, path: '/' }], origins: [] } } },
  ];
}
// Lighthouse's desktop screen: the header's layout differs from the phone's.
const desktop = { viewport: { width: 1350, height: 940 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false };
const referenceLoad = { key: 'reference', group: 'reference', url: referenceURL };

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || browserConfig.path,
  args: browserConfig.flags.filter((f) => !f.startsWith('--headless')),
});
let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await browser.close().catch(() => {});
  reference.close();
}
// bench.sh bounds this script with `timeout`: its TERM must not leave Chromium running.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.on(signal, () => void close().finally(() => process.exit(code)));

const chromiumVersion = browser.version();
const started = Date.now();
const loadBefore = loadavg()[0];
/** @type {Map<string, { load: object, samples: any[], errors: string[] }>} */
const results = new Map();
let failed = false;
let serial = 0;

async function measure(load, run) {
  const entry = results.get(load.key) ?? { load, samples: [], errors: [] };
  results.set(load.key, entry);
  const n = ++serial;
  const save = saveDir
    ? (trace) => {
        mkdirSync(saveDir, { recursive: true });
        writeFileSync(join(saveDir, `${String(n).padStart(3, '0')}-run${run}-${load.key.replace(/[^a-z0-9]+/gi, '_')}.json`), trace);
      }
    : undefined;
  try {
    const s = await loadOnce(browser, { url: load.url, context: load.context, capMs, save });
    entry.samples.push(s);
    console.error(
      `mt: run ${run}: ${load.key}: longest ${s.longest.toFixed(0)} ms, Σ>50 ${s.over.toFixed(0)} ms, CLS ${s.cls.toFixed(3)}, ` +
        `JS ${(s.jsAtLoad / 1024).toFixed(1)} / ${(s.jsBytes / 1024).toFixed(1)} KB, quiet at ${(s.quietMs / 1000).toFixed(1)} s${s.capped ? ' (CAPPED)' : ''}` +
        (load.group === 'page' || load.group === 'reference' ? '' : ` → ${s.finalUrl.slice(base.length)}`) +
        `; the longest: ${s.parts}`,
    );
  } catch (err) {
    failed = true;
    entry.errors.push(String(err?.message ?? err));
    console.error(`mt: run ${run}: ${load.key} FAILED: ${err?.stack ?? err}`);
  }
}

try {
  const token = variants ? await signUp() : '';
  for (let run = 1; run <= runs; run++) {
    for (const code of locales) {
      await measure(referenceLoad, run);
      for (const p of pages.filter((x) => x.code === code)) await measure(p, run);
    }
    if (variants) {
      await measure(referenceLoad, run);
      for (const v of variantList(token)) await measure(v, run);
    }
  }
} catch (err) {
  failed = true;
  console.error(`mt: ${err?.stack ?? err}`);
} finally {
  await close();
}

report(results, {
  runs,
  cpuRate,
  seconds: (Date.now() - started) / 1000,
  load: [loadBefore, loadavg()[0]],
  chromium: chromiumVersion,
});
process.exit(failed ? 1 : 0);
