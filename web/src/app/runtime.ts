// The page's runtime, loaded once the islands due at load and at idle are alive: client-side
// navigation (the router's, which this module shows on screen: the new <main> from its payload,
// its islands watched, the header and footer marked), the analytics, consent and the service
// worker.
import { startAnalytics } from '../features/analytics/public';
import { startConsent } from '../features/consent/public';
import { startOffline } from '../features/pwa/public';
import { locales, pagePath } from '../lib/site';
import type { IslandName } from '../page/Island';
import { startRuntime } from '../router/start';
import type { View } from '../router/view';
import type { BootData } from './boot';
import { loadIsland } from './islandModules';
import type { Islands } from './islands';
import type { Live } from './live';

export function start(boot: BootData, live: Live, islands: Islands) {
  const { store, i18n } = live;
  let shown = store.get();
  store.subscribe(() => {
    const view = store.get();
    if (view.visit !== shown.visit) show(view, islands);
    else if (view.search !== shown.search) markLanguages(view);
    shown = view;
  });
  startRuntime({
    boot,
    store,
    i18n,
    prepare: (payload) => Promise.all(payload.islands.map((name) => loadIsland(name as IslandName))),
  });
  markLanguages(store.get());
  startAnalytics(store);
  startConsent(store, i18n, boot.tagManager);
  startOffline(store);
}

/** A client-side navigation's page: its <main> from the payload, its islands alive. */
function show(view: View, islands: Islands) {
  const main = document.getElementById('main');
  if (!main || !view.payload) return;
  islands.unwatch(main);
  main.innerHTML = view.payload.main; // the prerender step's HTML, from our own origin
  void islands.watch(main);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('.tools-nav a, .site-footer nav a')) {
    if (new URL(a.href).pathname === view.path) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  markLanguages(view);
}

/** The language switcher leads to this page in each language, with its query. */
function markLanguages(view: View) {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('.lang-list a[hreflang]')) {
    const code = locales.find((l) => l.lang === a.hreflang)?.code;
    if (code) a.href = pagePath(view.route.page, code) + view.search;
  }
}
