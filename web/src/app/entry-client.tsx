// Boots a prerendered page: reads its data, loads its messages and page chunk, hydrates,
// then starts the runtime (navigation, preloading, build check) and, once idle, the analytics
// and the service worker.
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { startAnalytics } from '../features/analytics/public';
import { startConsent } from '../features/consent/public';
import { startOffline } from '../features/pwa/public';
import { I18nProvider } from '../i18n/react';
import { App } from './App';
import { bootDataId, type BootData } from './document';
import { createI18n } from '../i18n';
import { loadPage } from './pageRegistry';
import { startRuntime } from '../router/start';
import { createSearchWriter, createViewStore } from '../router/view';
import './styles.css';

async function main() {
  const el = document.getElementById(bootDataId);
  const root = document.getElementById('root');
  if (!el?.textContent || !root) return; // not an app page: nothing to hydrate
  const boot = JSON.parse(el.textContent) as BootData;
  const { route } = boot.payload;
  const [i18n] = await Promise.all([createI18n(route.locale, route.page), loadPage(route.page)]);
  const store = createViewStore({ path: location.pathname, search: '', route, payload: boot.payload });
  const replaceSearch = createSearchWriter(store, (search) => {
    history.replaceState(history.state, '', location.pathname + search + location.hash);
  });
  // Hydrating in a transition lets React yield to the browser every few milliseconds, so that
  // a slow phone's main thread is never blocked for long while the page comes alive. A click or
  // key press meanwhile makes React finish hydrating at once, then handles it.
  startTransition(() => {
    hydrateRoot(
      root,
      <I18nProvider i18n={i18n}>
        <App
          store={store}
          year={boot.year}
          onMount={() => {
            startRuntime({ boot, store, i18n, loadPage });
            startAnalytics(store);
            startConsent(store, i18n, boot.tagManager);
            startOffline(store);
          }}
          replaceSearch={replaceSearch}
        />
      </I18nProvider>,
      { onRecoverableError: (err) => console.warn('Recoverable render error:', err) },
    );
  });
}

main().catch((err) => console.error('Handy Tools failed to start:', err));
