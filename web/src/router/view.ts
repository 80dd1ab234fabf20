// The one piece of client state the router keeps: what is on screen.
import { createStore, type Store } from '../lib/store';
import type { PagePayload } from './payload';
import type { Route } from '../lib/site';

export interface View {
  path: string;
  search: string;
  route: Route;
  /** What a client-side navigation fetched; undefined for the page as loaded. */
  payload?: PagePayload;
  /** Counts the navigations of this tab (0: the page as loaded). A navigation to the very page
   * and query already on screen (a history entry) is a new visit: the page starts afresh from
   * its query, as a load would, rather than keep the state it had. */
  visit?: number;
}

export type ViewStore = Store<View>;

export const createViewStore = (initial: View): ViewStore => createStore(initial);

/**
 * Replaces the query string of a view, in the address and in the store, only while that view is
 * still the one on screen: a page writes its query after a pause, and a navigation (even to the
 * same page with another query, such as a history entry) may land first. Writing then would put
 * the old query back over the one the visitor asked for.
 */
export function createSearchWriter(store: ViewStore, replaceUrl: (search: string) => void) {
  return (view: View, search: string) => {
    if (store.get() !== view) return;
    replaceUrl(search);
    store.set({ ...view, search });
  };
}
