// The loading overlay's state: open while at least one request is in flight (requests overlap,
// so opens are counted), then "closing" for the 400 ms fade before it is gone. The timing
// lives here, not in the component, so that it is tested with fake timers.
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
  let state: OverlayState = { phase: 'closed', zIndex: 0 };
  let count = 0;
  let fade: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const set = (next: OverlayState) => {
    state = next;
    listeners.forEach((l) => l());
  };

  return {
    open() {
      count++;
      clearTimeout(fade);
      if (state.phase === 'closed') set({ phase: 'open', zIndex: zIndex() });
      else if (state.phase === 'closing') set({ ...state, phase: 'open' });
    },
    /** Ends one open; the overlay fades when the last one ends. Extra closes are ignored. */
    close() {
      if (count === 0) return;
      if (--count > 0) return;
      set({ ...state, phase: 'closing' });
      fade = setTimeout(() => set({ ...state, phase: 'closed' }), overlayFadeMs);
    },
    getSnapshot: (): OverlayState => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The page's one overlay, opened by the HTTP client. */
export const overlay = createOverlayStore();
