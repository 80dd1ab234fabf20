// The service worker (served as /sw.js, scope /): the site keeps working offline once visited.
// - Installing, it keeps the build's code (every tool's, the flipper's worker included) and the
//   languages an earlier build kept; a page asks for its own language (`cache-locale`): its
//   pages, payloads, messages and offline page. Other languages wait until they are visited.
// - Pages and payloads come from the network when it answers (fresh, and kept for offline),
//   else from the cache, else a page never kept gets the offline page of its language (or of a
//   language kept, whose tools it links to).
//   Content-hashed code comes from the cache first. The API and the build check never do.
// - A new build's worker takes over as soon as it has its files (a page already open keeps
//   running: the code it loads later is still in the old build's cache, which is deleted once
//   no page of before the update is open). The next navigation is the new build's.
/// <reference lib="webworker" />
import { cacheName, cachePrefix, localeOfPath, localeUrls, type Precache } from './logic/precache';
import { route } from './logic/routing';
import { keepShared } from './share';

declare const self: ServiceWorkerGlobalScope;
// Replaced by the prerender step with this build's Precache, as JSON.
declare const __HANDY_PRECACHE__: Precache;

const precache: Precache = __HANDY_PRECACHE__;
const current = cacheName(precache.build);
const codes = Object.keys(precache.locales);
/** How long a page waits for the network before a kept copy answers instead (a network that hangs). */
const networkPatienceMs = 4000;
/** Where the worker notes the caches it is retiring and the pages still using them. */
const retiringKey = '/__sw/retiring';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await store(await caches.open(current), precache.shell);
      for (const code of await localesKeptBefore()) await cacheLocale(code);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await self.clients.claim();
      const old = (await caches.keys()).filter((name) => name.startsWith(cachePrefix) && name !== current);
      const open = (await self.clients.matchAll({ type: 'window' })).map((c) => c.id);
      const cache = await caches.open(current);
      await cache.put(retiringKey, Response.json({ caches: old, clients: open }));
      await retireOldCaches();
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; locale?: unknown } | null;
  if (data?.type === 'cache-locale' && typeof data.locale === 'string') {
    event.waitUntil(cacheLocale(data.locale).then(retireOldCaches));
  }
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  switch (route({ method: request.method, url, mode: request.mode, origin: self.location.origin })) {
    case 'pass':
      return;
    case 'page':
      event.waitUntil(retireOldCaches());
      return event.respondWith(page(request, url));
    case 'payload':
      return event.respondWith(networkFirst(request, url));
    case 'asset':
    case 'static':
      return event.respondWith(cacheFirst(request));
    case 'share': {
      // Each language's manifest shares to /share-target?lang={code}.
      const locale = precache.locales[url.searchParams.get('lang') ?? ''] ?? precache.locales[precache.defaultLocale];
      return event.respondWith(keepShared(request, locale.flipper));
    }
  }
});

/** Fetches and keeps urls in cache, each as the server answers it (a redirect's target kept under the URL asked for). */
async function store(cache: Cache, urls: string[]) {
  await Promise.all(
    urls.map(async (u) => {
      const res = await fetch(u, { cache: 'no-cache' });
      if (!res.ok) throw new Error(`${u}: ${res.status}`);
      await cache.put(u, await unredirected(res));
    }),
  );
}

/** A locale's pages and what they need, unless the build's cache has them already. */
async function cacheLocale(code: string) {
  const p = precache.locales[code];
  if (!p) return;
  const cache = await caches.open(current);
  if (await cache.match(p.offline)) return; // stored last: everything else is there
  const [offline, ...rest] = localeUrls(p).reverse();
  await store(cache, rest);
  await store(cache, [offline]);
}

/** The locales an earlier build kept: a new build keeps them too. */
async function localesKeptBefore(): Promise<string[]> {
  const kept = new Set<string>();
  for (const name of await caches.keys()) {
    if (!name.startsWith(cachePrefix) || name === current) continue;
    const cache = await caches.open(name);
    for (const code of codes) if (await cache.match(precache.locales[code].offline)) kept.add(code);
  }
  return [...kept];
}

/** Deletes the caches of earlier builds once no page that was open at the update is. */
async function retireOldCaches() {
  const cache = await caches.open(current);
  const note = await cache.match(retiringKey);
  if (!note) return;
  const { caches: old, clients } = (await note.json()) as { caches: string[]; clients: string[] };
  const stillOpen = await Promise.all(clients.map((id) => self.clients.get(id)));
  if (stillOpen.some(Boolean)) return;
  await Promise.all(old.map((name) => caches.delete(name)));
  await cache.delete(retiringKey);
}

/** A page: fresh from the network (and kept), else kept, else the offline page of its language. */
async function page(request: Request, url: URL): Promise<Response> {
  const key = url.origin + url.pathname; // a calculator's shared link is its page with a query
  const fresh = fetch(request).then(async (res) => {
    if (res.ok && !res.redirected) await (await caches.open(current)).put(key, res.clone());
    return res;
  });
  const patience = new Promise<undefined>((resolve) => setTimeout(resolve, networkPatienceMs));
  const first = await Promise.race([fresh.catch(() => undefined), patience]);
  if (first) return first;
  const kept = await match(key);
  if (kept) return kept;
  const res = await fresh.catch(() => undefined);
  if (res) return res;
  return (await offlinePage(localeOfPath(url.pathname, codes, precache.defaultLocale))) ?? Response.error();
}

/**
 * The offline page of the path's language when that language is kept, else of one that is: its
 * links, to that language's tools, then work.
 */
async function offlinePage(code: string): Promise<Response | undefined> {
  for (const c of [code, precache.defaultLocale, ...codes]) {
    const res = await match(precache.locales[c].offline);
    if (res) return res;
  }
  return undefined;
}

/** The network, else a kept copy (a payload's query is its build: any build's copy will do offline). */
async function networkFirst(request: Request, url: URL): Promise<Response> {
  const key = url.origin + url.pathname;
  try {
    const res = await fetch(request);
    if (res.ok) await (await caches.open(current)).put(key, res.clone());
    return res;
  } catch (err) {
    const kept = await match(key);
    if (kept) return kept;
    throw err;
  }
}

/** A kept copy (this build's first, then an earlier build's: a page open since the update needs its own code), else the network. */
async function cacheFirst(request: Request): Promise<Response> {
  const kept = await match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok && res.type === 'basic') await (await caches.open(current)).put(request, res.clone());
  return res;
}

async function match(key: RequestInfo): Promise<Response | undefined> {
  const options = { ignoreSearch: true, ignoreVary: true };
  return (await (await caches.open(current)).match(key, options)) ?? (await caches.match(key, options));
}

/** A response a navigation may use: a redirect's final response is not one (its redirected flag). */
async function unredirected(res: Response): Promise<Response> {
  if (!res.redirected) return res;
  return new Response(await res.blob(), { status: res.status, statusText: res.statusText, headers: res.headers });
}
