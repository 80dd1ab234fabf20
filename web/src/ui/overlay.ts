// The loading overlay's state: open while at least one request is in flight (requests overlap,
// so opens are counted), then "closing" for the 400 ms fade before it is gone. The timing
// lives here, not in the component, so that it is tested with fake timers.
import { createStore } from '../lib/store';
import { nextZIndex } from './zIndex';

/** The fade-out, in ms (spec: 400); ui.css uses the same duration. */
export const overlayFadeMs = 400;

export interface OverlayState {
  phase: 'closed' | 'open' | 'closing';
  /** Taken from the shared counter each time it opens, so it covers what opened before. */
  zIndex: number;
}

export type OverlayStore = ReturnType<typeof createOverlayStore>;

export function createOverlayStore(zIndex: () => number = nextZIndex) {
  const store = createStore<OverlayState>({ phase: 'closed', zIndex: 0 });
  let count = 0;
  let fade: ReturnType<typeof setTimeout> | undefined;

  return {
    open() {
      count++;
      clearTimeout(fade);
      const { phase } = store.get();
      if (phase === 'closed') store.set({ phase: 'open', zIndex: zIndex() });
      else if (phase === 'closing') store.set((s) => ({ ...s, phase: 'open' }));
    },
    /** Ends one open; the overlay fades when the last one ends. Extra closes are ignored. */
    close() {
      if (count === 0) return;
      if (--count > 0) return;
      store.set((s) => ({ ...s, phase: 'closing' }));
      fade = setTimeout(() => store.set((s) => ({ ...s, phase: 'closed' })), overlayFadeMs);
    },
    get: store.get,
    subscribe: store.subscribe,
  };
}

/** The page's one overlay, opened by the HTTP client. */
export const overlay = createOverlayStore();
