// Payloads of prerendered pages, fetched once per build with `force-cache` and shared
// between the preloader and the navigation that follows it.
import type { PagePayload } from './payload';
import { payloadPath } from '../lib/site';

export function createPayloadCache(buildId: string, get: typeof fetch = (...a) => fetch(...a)) {
  const cache = new Map<string, Promise<PagePayload>>();
  return function fetchPayload(path: string): Promise<PagePayload> {
    let pending = cache.get(path);
    if (!pending) {
      pending = get(`${payloadPath(path)}?${buildId}`, { cache: 'force-cache' }).then((res) => {
        if (!res.ok) throw new Error(`payload of ${path}: status ${res.status}`);
        return res.json() as Promise<PagePayload>;
      });
      pending.catch(() => cache.delete(path)); // the next try fetches again
      cache.set(path, pending);
    }
    return pending;
  };
}
