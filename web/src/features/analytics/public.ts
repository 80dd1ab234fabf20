// What every page carries of the analytics: the few bytes that load the tracker (tracker.ts, its
// own chunk) once the page is idle, so that counting never competes with the page's loading.
import { apiUrl } from '../../lib/api';
import type { Readable } from '../../lib/store';
import type { View } from '../../router/view';

/** Starts the page-view tracker when the browser is next idle; call it after hydration. */
export function startAnalytics(views: Readable<View>) {
  // A tracker that fails to load (offline, blocked) costs the visitor nothing, not even a message.
  const load = () => void import('./tracker').then((t) => t.track(views, apiUrl('pageviews')), () => {});
  if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 5000 });
  else setTimeout(load, 1000);
}
