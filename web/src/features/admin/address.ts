// The dashboard's state in the address: its query string is the range on screen, so that the
// back button, a reload and a bookmark all show the same period. The prerendered page has no
// query; the real one is read once hydrated.
import { useSyncExternalStore } from 'react';

const changed = 'handy-admin-address';

function subscribe(listener: () => void) {
  addEventListener('popstate', listener);
  addEventListener(changed, listener);
  return () => {
    removeEventListener('popstate', listener);
    removeEventListener(changed, listener);
  };
}

/** The address's query string ('' when prerendering), following back and forward. */
export const useSearch = () =>
  useSyncExternalStore(
    subscribe,
    () => location.search,
    () => '',
  );

/** Shows another query string: a new history entry, unless it is the one on screen. */
export function pushSearch(search: string) {
  if (search === location.search) return;
  history.pushState(null, '', location.pathname + search);
  dispatchEvent(new Event(changed));
}
