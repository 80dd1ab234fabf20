// The prerender step's rendering of a page with islands: the page around them, then each island
// alone, in its IslandRoot and with its own identifierPrefix, put into its placeholder. The
// browser hydrates each island exactly so (./live.tsx), never the page around it.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nProvider } from '../i18n/react';
import type { I18n } from '../i18n/translator';
import { IslandCollector, islandMarker, type IslandUse } from '../page/Island';
import { createViewStore, type View } from '../router/view';
import { IslandRoot } from './IslandRoot';
import { idPrefix, loadedIsland } from './islandModules';

export function renderWithIslands(node: ReactNode, i18n: I18n, view: View): { html: string; islands: IslandUse[] } {
  const found: IslandUse[] = [];
  let html = renderToString(
    <IslandCollector.Provider value={found}>
      <I18nProvider i18n={i18n}>{node}</I18nProvider>
    </IslandCollector.Provider>,
  );
  const names = found.map((f) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`island ${twice} placed twice on ${view.path}: its ids would clash`);
  const views = createViewStore(view);
  found.forEach(({ name, props }, i) => {
    const Component = loadedIsland(name);
    const inner = renderToString(
      <IslandRoot i18n={i18n} views={views} prerendered={view} replaceSearch={() => {}}>
        <Component {...props} />
      </IslandRoot>,
      { identifierPrefix: idPrefix(name) },
    );
    html = html.replace(islandMarker(i), () => inner);
  });
  return { html, islands: found };
}
