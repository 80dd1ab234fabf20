// What brings islands alive, loaded when the first one is about to hydrate: React, the page's
// messages and the view of the page on screen. Each island is its own root (hydrateRoot), with
// the providers and id prefix it was prerendered with (./render.tsx), so the two always match.
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { createI18n } from '../i18n';
import type { I18n } from '../i18n/translator';
import type { IslandName, IslandProps } from '../page/Island';
import { createSearchWriter, createViewStore, type ViewStore } from '../router/view';
import type { BootData } from './document';
import { IslandRoot } from './IslandRoot';
import { idPrefix, loadIsland } from './islandModules';
import type { Hydrator } from './islands';

export interface Live extends Hydrator {
  i18n: I18n;
  /** What is on screen; the runtime's navigations change it. */
  store: ViewStore;
}

export async function bringAlive(boot: BootData): Promise<Live> {
  const { route } = boot;
  const i18n = await createI18n(route.locale, route.page);
  const store = createViewStore({ path: location.pathname, search: '', route });
  const replaceSearch = createSearchWriter(store, (search) => {
    history.replaceState(history.state, '', location.pathname + search + location.hash);
  });
  return {
    i18n,
    store,
    async hydrate(el, urgent) {
      const name = el.dataset.island as IslandName;
      const props = JSON.parse(el.dataset.props ?? '{}') as IslandProps;
      const Island = await loadIsland(name);
      // What the island was prerendered with: no query (the address's comes right after).
      const prerendered = { ...store.get(), search: '' };
      return new Promise((resolve) => {
        let root: Root | undefined;
        const start = () => {
          root = hydrateRoot(
            el,
            <IslandRoot i18n={i18n} views={store} prerendered={prerendered} replaceSearch={replaceSearch} onHydrated={() => resolve(() => root?.unmount())}>
              <Island {...props} />
            </IslandRoot>,
            { identifierPrefix: idPrefix(name), onRecoverableError: (err) => console.warn(`Recoverable render error in the island ${name}:`, err) },
          );
        };
        // In a transition React yields to the browser every few milliseconds while it hydrates;
        // a visitor waiting on a held click gets it at once instead.
        if (urgent) start();
        else startTransition(start);
      });
    },
  };
}
