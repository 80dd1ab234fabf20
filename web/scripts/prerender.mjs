// The prerender step: turns the Vite client and SSR builds into web/dist, the tree the Go
// binary embeds (layout: docs/architecture.md). Also enforces the first-load JS budget.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const client = join(web, 'build/client');
const dist = join(web, 'dist');
// First-load JS per page, brotli (what browsers receive): a tool page's, and an informational
// page's, which hydrates nothing before idle.
const budgetBytes = { tool: 90 * 1024, informational: 4 * 1024 };
const idToken = '__HANDY_BUILD_ID__';

const app = await import(pathToFileURL(join(web, 'build/server/entry-server.js')).href);
const manifest = JSON.parse(readFileSync(join(client, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('prerender: no entry in the Vite manifest');

/** A manifest chunk's file and those of its static imports, depth first, once each. */
function chunkFiles(key, seen = new Set(), from = manifest) {
  const chunk = from[key];
  if (!chunk) throw new Error(`prerender: ${key} is not in the Vite manifest`);
  if (seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.imports ?? []).flatMap((k) => chunkFiles(k, seen, from))];
}

const entryFiles = chunkFiles(entryKey);
const styles = (manifest[entryKey].css ?? []).map((f) => readFileSync(join(client, f), 'utf8'));
const year = new Date().getUTCFullYear();

// Start from a clean tree (keeping .gitkeep, so that `go vet` works before any build).
for (const name of readdirSync(dist)) if (name !== '.gitkeep') rmSync(join(dist, name), { recursive: true });
cpSync(client, dist, { recursive: true, filter: (src) => !src.includes('/.vite') });

const write = (rel, data) => {
  const file = join(dist, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
};
const size = (file, compress) => compress(readFileSync(join(client, file))).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const gz = (b) => gzipSync(b, { level: 9 });

// First-load JS: what a page loads before it is idle, the entry and the chunks it preloads (those
// of the islands due at load: React, the islands, the page's messages). A page whose islands all
// wait for idle (the informational pages) loads the entry only; "at idle" adds what then comes.
const budget = [];
const prerendered = [];
const liveKey = 'src/app/live.tsx';
const runtimeKey = 'src/app/runtime.ts';
const jsSize = (files) => ({ brotli: files.reduce((n, f) => n + size(f, br), 0), gzip: files.reduce((n, f) => n + size(f, gz), 0) });
/** The files of these chunks that the entry does not already bring, once each. */
const beyondEntry = (keys) => {
  const seen = new Set(entryFiles);
  return keys.flatMap((key) => chunkFiles(key)).filter((f) => !seen.has(f) && seen.add(f));
};
/** The islands every page places (the header's), found as the pages are rendered. */
let everyPage;
for (const route of app.routes) {
  const path = app.pagePath(route.page, route.locale);
  const assetsOf = (islands) => {
    const names = islands.map((i) => i.name);
    everyPage = everyPage ? everyPage.filter((n) => names.includes(n)) : names;
    const atLoad = islands.filter((i) => i.when === 'load').map((i) => i.name);
    const messages = app.messageChunks(route.locale, route.page);
    const preload = atLoad.length > 0 ? beyondEntry([liveKey, ...atLoad.map(app.islandChunk), ...messages]) : [];
    const idle = beyondEntry([liveKey, runtimeKey, ...islands.map((i) => app.islandChunk(i.name)), ...messages]);
    budget.push({ path, kind: atLoad.length > 0 ? 'tool' : 'informational', ...jsSize([...entryFiles, ...preload]), atIdle: jsSize([...entryFiles, ...idle]) });
    return { entry: `/${entryFiles[0]}`, preload: preload.map((f) => `/${f}`), styles };
  };
  const { html, payload } = await app.renderRoute(route, assetsOf, idToken, year);
  const dir = path === '/' ? '' : path.slice(1);
  write(join(dir, 'index.html'), html);
  write(join(dir, '_payload.json'), JSON.stringify(payload));
  prerendered.push(path);
}

for (const locale of app.locales) {
  write(app.manifestPath(locale.code).slice(1), await app.renderManifest(locale.code));
  write(app.offlinePath(locale.code).slice(1), await app.renderOffline(locale.code, styles, year));
  for (const status of [404, 500]) {
    write(`_errors/${locale.code}/${status}.html`, await app.renderError(locale.code, status, styles, year));
  }
}

// The operator's dashboard: a bundle of its own (`vite build --mode admin`, build/admin), and one
// document per locale under _admin/ at its path (_admin/de/admin/index.html), which the server
// serves at that path only when an admin token is configured. Its assets join the site's
// (hashed names: no clash, and a chunk both builds made alike is one file).
const adminClient = join(web, 'build/admin');
const adminManifest = JSON.parse(readFileSync(join(adminClient, '.vite/manifest.json'), 'utf8'));
const adminKey = Object.keys(adminManifest).find((k) => adminManifest[k].isEntry);
if (!adminKey) throw new Error("prerender: no entry in the dashboard's Vite manifest");
cpSync(join(adminClient, 'assets'), join(dist, 'assets'), { recursive: true });
const [adminEntry, ...adminPreload] = chunkFiles(adminKey, new Set(), adminManifest);
const adminAssets = {
  entry: `/${adminEntry}`,
  preload: adminPreload.map((f) => `/${f}`),
  styles: (adminManifest[adminKey].css ?? []).map((f) => readFileSync(join(adminClient, f), 'utf8')),
};
for (const locale of app.locales) {
  write(join('_admin', app.adminPath(locale.code), 'index.html'), await app.renderAdmin(locale.code, adminAssets));
}

// The build id is a hash of everything the build wrote.
const files = (dir) =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
const hash = createHash('sha256');
for (const file of files(dist).sort()) hash.update(relative(dist, file)).update(readFileSync(file));
hash.update(readFileSync(join(web, 'build/sw/sw.js'))); // the worker's code too: its cache is the build's
const id = hash.digest('hex').slice(0, 16);
for (const file of files(dist).filter((f) => /\.(html|json)$/.test(f))) {
  const text = readFileSync(file, 'utf8');
  if (text.includes(idToken)) writeFileSync(file, text.replaceAll(idToken, id));
}
const timestamp = Date.now();
write('builds/latest.json', JSON.stringify({ id, timestamp }));
write(`builds/meta/${id}.json`, JSON.stringify({ id, timestamp, routeRules: app.routeRules, prerendered }));

// The service worker: its script (build/sw) with what this build keeps for offline use written
// in (features/pwa/logic/precache.ts). The shell is every file of the client build but the
// message chunks (the flipper's worker and its lazy chunks are not in Vite's manifest, so the
// folder is listed); a locale adds its pages, their payloads, its messages, its offline page.
const messageFiles = (code) =>
  Object.entries(manifest)
    .filter(([key]) => key.endsWith(`/locales/${code}.json`))
    .map(([, chunk]) => `/${chunk.file}`);
const allMessages = new Set(app.locales.flatMap((l) => messageFiles(l.code)));
const precache = {
  build: id,
  defaultLocale: app.defaultLocale,
  shell: [
    ...readdirSync(join(client, 'assets')).map((f) => `/assets/${f}`).filter((f) => !allMessages.has(f)),
    '/favicon.svg',
    '/favicon.ico',
    ...readdirSync(join(dist, 'icons')).map((f) => `/icons/${f}`),
  ],
  locales: Object.fromEntries(
    app.locales.map(({ code }) => {
      const pages = app.routes.filter((r) => r.locale === code).map((r) => app.pagePath(r.page, code));
      return [
        code,
        {
          pages,
          payloads: pages.map((p) => app.payloadPath(p)),
          messages: messageFiles(code),
          manifest: app.manifestPath(code),
          offline: app.offlinePath(code),
          flipper: app.pagePath('flip-image', code),
        },
      ];
    }),
  ),
};
const sw = readFileSync(join(web, 'build/sw/sw.js'), 'utf8');
if (sw.split('__HANDY_PRECACHE__').length !== 2) throw new Error('prerender: sw.js must name __HANDY_PRECACHE__ once');
write('sw.js', sw.replace('__HANDY_PRECACHE__', JSON.stringify(precache)));

// The budget: report each kind of page, fail the build on any page over its kind's budget.
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
writeFileSync(join(web, 'build/budget.json'), JSON.stringify({ budgetBytes, pages: budget }, null, 2));
console.log(`prerendered ${prerendered.length} pages, ${app.locales.length * 2} error pages and ${app.locales.length} dashboard pages; build ${id}`);
for (const kind of Object.keys(budgetBytes)) {
  const pages = budget.filter((b) => b.kind === kind);
  if (pages.length === 0) throw new Error(`prerender: no ${kind} page to check the budget of`);
  const worst = pages.reduce((a, b) => (b.brotli > a.brotli ? b : a));
  const idle = pages.reduce((a, b) => (b.atIdle.brotli > a.atIdle.brotli ? b : a));
  console.log(
    `first-load JS, ${kind} pages: largest ${worst.path} ${kb(worst.brotli)} brotli (${kb(worst.gzip)} gzip); budget ${kb(budgetBytes[kind])} brotli; ` +
      `with what loads at idle, largest ${idle.path} ${kb(idle.atIdle.brotli)}`,
  );
}
const over = budget.filter((b) => b.brotli > budgetBytes[b.kind]);
if (over.length > 0) {
  for (const b of over) console.error(`over budget: ${b.path} ${kb(b.brotli)} > ${kb(budgetBytes[b.kind])} (${b.kind} page)`);
  process.exit(1);
}

// The sync code: what a signed-in visitor's history and preferences load on top of the page (the
// history's runtime and the account's synced copy, with the data layer), loaded on first use, on
// top of what every page has by then (the entry, React and the header's islands).
const syncBudgetBytes = 12 * 1024;
const syncModules = ['src/features/history/runtime.ts', 'src/features/history/account.ts'];
const everyPageFiles = new Set([...entryFiles, ...[liveKey, ...everyPage.map(app.islandChunk)].flatMap((k) => chunkFiles(k))]);
const syncFiles = [...new Set(syncModules.flatMap((k) => chunkFiles(k)))].filter((f) => !everyPageFiles.has(f));
const syncBrotli = syncFiles.reduce((n, f) => n + size(f, br), 0);
console.log(`sync code: ${kb(syncBrotli)} brotli in ${syncFiles.length} chunks; budget ${kb(syncBudgetBytes)} brotli`);
if (syncBrotli > syncBudgetBytes) {
  console.error(`over budget: the sync code, ${kb(syncBrotli)} > ${kb(syncBudgetBytes)} (${syncFiles.join(', ')})`);
  process.exit(1);
}

// The page-view tracker: loaded on every page once it is idle, never with the first load (it is
// a chunk of its own, or it would not be in the manifest by itself), and kept tiny.
const trackerBudgetBytes = 1024;
const trackerFiles = chunkFiles('src/features/analytics/tracker.ts').filter((f) => !entryFiles.includes(f));
const trackerBrotli = trackerFiles.reduce((n, f) => n + size(f, br), 0);
console.log(`analytics tracker: ${trackerBrotli} B brotli in ${trackerFiles.length} chunk(s); budget ${trackerBudgetBytes} B brotli`);
if (trackerBrotli > trackerBudgetBytes) {
  console.error(`over budget: the analytics tracker, ${trackerBrotli} B > ${trackerBudgetBytes} B (${trackerFiles.join(', ')})`);
  process.exit(1);
}
if (!existsSync(join(dist, 'favicon.ico'))) throw new Error('prerender: web/public/favicon.ico is missing');
