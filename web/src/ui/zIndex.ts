// One stacking order for everything the runtime lays over the page (loading overlay, toasts,
// dialogs): each layer takes the next value of one counter that starts at 2000, so whatever
// opened last is on top and nothing needs a hand-picked z-index.

/** The first value handed out (spec: base z-index 2000). */
export const baseZIndex = 2000;

/** A counter of its own, for tests; the page uses the shared one through `nextZIndex`. */
export function createZIndexCounter(start = baseZIndex): () => number {
  let next = start;
  return () => next++;
}

/** The next z-index of the page's shared counter: 2000, then 2001, 2002… */
export const nextZIndex = createZIndexCounter();
