// The one piece of client state the router keeps: what is on screen.
import type { Payload } from './payload';
import type { Route } from '../lib/site';

export interface View {
  path: string;
  search: string;
  /** Undefined for an unknown path: the page shows "Page not found". */
  route?: Route;
  payload?: Payload;
}

export type ViewStore = ReturnType<typeof createViewStore>;

export function createViewStore(initial: View) {
  let view = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => view,
    set(next: View) {
      view = next;
      listeners.forEach((l) => l());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
