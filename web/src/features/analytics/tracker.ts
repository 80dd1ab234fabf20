// The page-view tracker: its own chunk, loaded once the page is idle (public.ts), under 1 KB
// brotli (checked by web/scripts/prerender.mjs). It imports only types from the page bundle, so
// that the bundler has no reason to split the entry chunk (docs/decisions.md). No cookie, no
// storage, no identifier: a beacon per page view, and nothing at all where excluded() says so.
import type { Readable } from '../../lib/store';
import type { View } from '../../router/view';
import { excluded, pageViews, referrerHost } from './logic/pageView';

/**
 * Sends a page view to url (the page bundle's, from api.json: kept out of this chunk) for the
 * view on screen now and for each later one that counts.
 */
export function track(views: Readable<View>, url: string) {
  if (excluded(navigator)) return;
  const next = pageViews(referrerHost(document.referrer, location.hostname));
  const send = () => {
    const { path, route } = views.get();
    const view = next({ path, locale: route?.locale, language: navigator.language, width: innerWidth });
    // A string goes as text/plain: a simple request, no preflight.
    if (view) navigator.sendBeacon(url, JSON.stringify(view));
  };
  send();
  views.subscribe(send);
}
