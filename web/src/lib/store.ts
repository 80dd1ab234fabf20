// One small store: a value, who listens to it, and how a component reads it. Every piece of
// client state shared outside React (what is on screen, toasts, the overlay, the session, the
// account dialog, preferences, the language) is one of these, read with `useStore`.
import { useSyncExternalStore } from 'react';

/** What reading a store takes: a store, or an object that exposes one's get and subscribe. */
export interface Readable<T> {
  get: () => T;
  /** Returns the function that stops listening. */
  subscribe: (listener: () => void) => () => void;
}

export interface Store<T> extends Readable<T> {
  /** Replaces the value (or derives it from the current one) and tells every listener. */
  set: (next: T | ((current: T) => T)) => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = typeof next === 'function' ? (next as (current: T) => T)(value) : next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

const same = <T,>(value: T) => value;

/**
 * The store's value (or the part `select` picks, which must be the same object while the value
 * is) in a component, re-rendered when it changes. `server` is what the prerendered page was
 * rendered with, so that hydration matches; by default the store's own value.
 */
export function useStore<T, S = T>(store: Readable<T>, select: (value: T) => S = same as (value: T) => S, server?: () => S): S {
  const read = () => select(store.get());
  return useSyncExternalStore(store.subscribe, read, server ?? read);
}
