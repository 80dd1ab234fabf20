// The one piece of client state the router keeps: what is on screen.
import { createStore, type Store } from '../lib/store';
import type { Payload } from './payload';
import type { Route } from '../lib/site';

export interface View {
  path: string;
  search: string;
  /** Undefined for an unknown path: the page shows "Page not found". */
  route?: Route;
  payload?: Payload;
}

export type ViewStore = Store<View>;

export const createViewStore = (initial: View): ViewStore => createStore(initial);
