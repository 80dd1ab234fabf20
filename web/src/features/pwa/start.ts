// Starts the service worker (sw.ts) once the page is idle, so that neither its registration nor
// the files it fetches compete with the page's loading, and asks it to keep the page's language
// for offline use: again whenever the visitor moves to another language.
import type { Readable } from '../../lib/store';
import type { View } from '../../router/view';

export function startOffline(views: Readable<View>) {
  if (!('serviceWorker' in navigator)) return;
  const start = async () => {
    try {
      await navigator.serviceWorker.register('/sw.js', { updateViaCache: 'none' });
      const registration = await navigator.serviceWorker.ready;
      let asked: string | undefined;
      const ask = () => {
        const locale = views.get().route?.locale;
        if (!locale || locale === asked) return;
        asked = locale;
        registration.active?.postMessage({ type: 'cache-locale', locale });
      };
      ask();
      views.subscribe(ask);
    } catch (err) {
      // Private windows and some policies forbid workers: the site works online as before.
      console.warn('Offline use is unavailable:', err);
    }
  };
  if ('requestIdleCallback' in window) requestIdleCallback(() => void start(), { timeout: 5000 });
  else setTimeout(() => void start(), 1000);
}
