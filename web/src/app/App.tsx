import { useCallback, useEffect, useEffectEvent } from 'react';
import { ErrorMessage } from './ErrorMessage';
import { Layout } from './Layout';
import { loadedPage } from './pageRegistry';
import type { View, ViewStore } from '../router/view';
import { localeOfPath } from '../lib/site';
import { useStore } from '../lib/store';

interface Props {
  store: ViewStore;
  year: number;
  /** Runs once, soon after hydration. */
  onMount?: () => void;
  /** Replaces the query string of a view if it is still on screen; the server has nothing to replace. */
  replaceSearch?: (view: View, search: string) => void;
}

const noop = () => {};

/** The whole page: layout around the current view (a page, or "Page not found"). */
export function App({ store, year, onMount, replaceSearch = noop }: Props) {
  const mounted = useEffectEvent(() => onMount?.());
  useEffect(() => {
    // Once, after hydration, in a task of its own rather than after every component's effects:
    // the main thread is never held long enough to delay a tap.
    const id = setTimeout(mounted);
    return () => clearTimeout(id);
  }, []);
  const view = useStore(store);
  // Bound to the view it was rendered for, so that a page's late write cannot undo a navigation.
  const replaceViewSearch = useCallback((search: string) => replaceSearch(view, search), [replaceSearch, view]);
  const locale = view.route?.locale ?? localeOfPath(view.path);
  const Page = view.route && view.payload ? loadedPage(view.route.page) : undefined;
  return (
    <Layout locale={locale} page={view.route?.page} search={view.search} year={year}>
      {Page && view.payload ? (
        // Keyed by path and visit: a page in another language starts afresh, with fields in its
        // notation, and so does a page navigated to again (a history entry with the same query).
        // eslint-disable-next-line react-hooks/static-components -- loadedPage returns the page module's own component, loaded once and cached, never one made here
        <Page key={`${view.path}#${view.visit ?? 0}`} payload={view.payload} search={view.search} replaceSearch={replaceViewSearch} />
      ) : (
        <ErrorMessage kind="notFound" locale={locale} />
      )}
    </Layout>
  );
}
