import { useEffect, useSyncExternalStore } from 'react';
import { ErrorMessage } from './components/ErrorMessage';
import { Layout } from './components/Layout';
import { loadedPage } from './pageRegistry';
import type { ViewStore } from './runtime/view';
import { localeOfPath } from './site';

interface Props {
  store: ViewStore;
  year: number;
  /** Runs once, after hydration. */
  onMount?: () => void;
}

/** The whole page: layout around the current view (a page, or "Page not found"). */
export function App({ store, year, onMount }: Props) {
  useEffect(() => onMount?.(), []); // once: the boot callback, not a dependency
  const view = useSyncExternalStore(store.subscribe, store.get, store.get);
  const locale = view.route?.locale ?? localeOfPath(view.path);
  const Page = view.route && view.payload ? loadedPage(view.route.page) : undefined;
  return (
    <Layout locale={locale} page={view.route?.page} search={view.search} year={year}>
      {Page && view.payload ? <Page payload={view.payload} /> : <ErrorMessage kind="notFound" locale={locale} />}
    </Layout>
  );
}
