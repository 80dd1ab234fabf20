// How the service worker answers a request, decided from the request alone.

export type Route =
  /** Not ours to answer: the browser goes to the network as if there were no worker. */
  | 'pass'
  /** A page: the network first (fresh when online), else the cache, else the offline page. */
  | 'page'
  /** A page's payload: the network first, else the cache. */
  | 'payload'
  /** A content-hashed asset: the cache first (it never changes), else the network. */
  | 'asset'
  /** Anything else of the site's (icons, manifests): the cache first, else the network. */
  | 'static'
  /** An image shared to the installed app (Web Share Target). */
  | 'share';

export interface RequestFacts {
  method: string;
  url: URL;
  mode: RequestMode;
  origin: string;
}

/** The path the installed app receives shared images at (the manifest's share_target). */
export const sharePath = '/share-target';

/**
 * The API and the build check always reach the server: an answer from a cache would be stale
 * data or a stale build. Other origins' requests are not the site's to keep.
 */
export function route({ method, url, mode, origin }: RequestFacts): Route {
  if (url.origin !== origin) return 'pass';
  if (method === 'POST' && url.pathname === sharePath) return 'share';
  if (method !== 'GET') return 'pass';
  const path = url.pathname;
  if (path.startsWith('/api/') || path.startsWith('/builds/') || path === '/sw.js') return 'pass';
  if (mode === 'navigate') return 'page';
  if (path.endsWith('/_payload.json')) return 'payload';
  if (path.startsWith('/assets/')) return 'asset';
  return 'static';
}
