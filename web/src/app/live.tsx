// What brings islands alive, loaded when the first one is about to hydrate: React, the page's
// messages and the view of the page on screen. Each island is its own root (hydrateRoot), with
// the providers and id prefix it was prerendered with (./render.tsx), so the two always match.
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { createI18n } from '../i18n';
import type { I18n } from '../i18n/translator';
import type { IslandName, IslandProps } from '../page/Island';
import { createSearchWriter, createViewStore, type ViewStore } from '../router/view';
import type { BootData } from './boot';
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
          const typed = keepTyped(el);
          const hydrated = () => {
            typed.forEach((giveBack) => giveBack());
            resolve(() => root?.unmount());
          };
          root = hydrateRoot(
            el,
            <IslandRoot i18n={i18n} views={store} prerendered={prerendered} replaceSearch={replaceSearch} onHydrated={hydrated}>
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

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * What a visitor typed or chose in an island's fields before it hydrated. Hydration sets a
 * controlled field back to the value it was prerendered with; each such field is given its value
 * back afterwards as the visitor's own input event, which the island's state then takes.
 */
function keepTyped(el: HTMLElement): (() => void)[] {
  const giveBack: (() => void)[] = [];
  for (const f of el.querySelectorAll<Field>('input, textarea, select')) {
    if (f instanceof HTMLInputElement && (f.type === 'checkbox' || f.type === 'radio')) {
      const checked = f.checked;
      // Set the other way through React's tracker, then clicked: React sees the visitor's change.
      if (checked !== f.defaultChecked) {
        giveBack.push(() => {
          if (!f.isConnected) return;
          f.checked = !checked;
          f.click();
        });
      }
      continue;
    }
    if (f instanceof HTMLInputElement && f.type === 'file') {
      // The files chosen stay in the field: their change is told again.
      if (f.files?.length) giveBack.push(() => void (f.isConnected && f.dispatchEvent(new Event('change', { bubbles: true }))));
      continue;
    }
    const changed = f instanceof HTMLSelectElement ? [...f.options].some((o) => o.selected !== o.defaultSelected) : f.value !== f.defaultValue;
    if (!changed) continue;
    const value = f.value;
    giveBack.push(() => {
      if (!f.isConnected) return;
      // React tells a visitor's change from its own by a tracker it keeps on the element (its
      // own `value` setter): it is set to something else first, then the prototype's setter
      // puts the value back unseen, and the event reads as the visitor's change.
      const own = Object.getOwnPropertyDescriptor(f, 'value');
      const proto = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(f) as object, 'value');
      own?.set?.call(f, value === '' ? ' ' : '');
      proto?.set?.call(f, value);
      f.dispatchEvent(new Event(f instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    });
  }
  return giveBack;
}
