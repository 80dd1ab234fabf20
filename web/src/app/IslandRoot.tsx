// What every island renders inside: the translator and the page's query. The prerender step
// renders each island in it, and the browser hydrates each in it, so the two match.
import { useEffect, useMemo, type ReactNode } from 'react';
import { I18nProvider } from '../i18n/react';
import type { I18n } from '../i18n/translator';
import { useStore, type Readable } from '../lib/store';
import { PageQueryContext } from '../page/query';
import type { View } from '../router/view';

interface Props {
  i18n: I18n;
  views: Readable<View>;
  /** The view the island was prerendered for (no query): what hydration renders first. */
  prerendered: View;
  /** Replaces the query of a view still on screen (router/view.ts, createSearchWriter). */
  replaceSearch: (view: View, search: string) => void;
  /** Runs once the island is hydrated (its effects run): a click held until then is replayed. */
  onHydrated?: () => void;
  children: ReactNode;
}

export function IslandRoot({ i18n, views, prerendered, replaceSearch, onHydrated, children }: Props) {
  const view = useStore(views, undefined, () => prerendered);
  // Bound to the view it was made for, so that a page's late write cannot undo a navigation.
  const query = useMemo(() => ({ search: view.search, replaceSearch: (search: string) => replaceSearch(view, search) }), [view, replaceSearch]);
  useEffect(() => onHydrated?.(), []); // eslint-disable-line react-hooks/exhaustive-deps -- once, at hydration
  return (
    <I18nProvider i18n={i18n}>
      <PageQueryContext.Provider value={query}>{children}</PageQueryContext.Provider>
    </I18nProvider>
  );
}
