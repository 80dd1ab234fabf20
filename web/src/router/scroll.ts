// Where each history entry was scrolled to, kept in the entry's own state, so that back, forward
// and reload return to it. The browser cannot do this for us: it restores the position as the
// entry comes back, before the page that goes with it is rendered here, so a long page came back
// near its top. On a page of long text the place is the block at the top of the window and how
// far into it, not a number of pixels: blocks never seen count only as an estimate of their
// height (styles.css), so the same pixels hold other text once they are laid out.

/** How long scrolling must pause before the position is written into the entry. */
const settleMs = 200;

/** Lays out every block of the page for a scroll to a place in it. Blocks of long text out of
 * sight count only as an estimate of their height until first laid out (styles.css), so a place
 * far down is right only once those above it are. They stay laid out for one frame after, so
 * that each keeps its real size when it is skipped again and nothing moves under the visitor. */
export function layOutAll() {
  const root = document.documentElement;
  root.dataset.layout = 'all';
  requestAnimationFrame(() => requestAnimationFrame(() => delete root.dataset.layout));
}

/** A place on the page: the window's top in pixels, and, on long text, the block there (its
 * index among the text's blocks) and how many pixels of it are above the window. */
interface Place {
  y: number;
  block?: number;
  into?: number;
}

const blocks = () => document.querySelector('main .prose')?.children;

function here(): Place {
  const place: Place = { y: Math.round(scrollY) };
  const all = blocks();
  for (let i = 0; all && i < all.length; i++) {
    const box = all[i].getBoundingClientRect();
    if (box.bottom > 0) {
      // Not rounded: a block's top may fall between pixels, and the scroll offset restored as
      // its top plus a rounded distance could land a pixel away from where it was.
      if (box.top <= 0) Object.assign(place, { block: i, into: -box.top });
      break;
    }
  }
  return place;
}

const whole = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
const distance = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** The place saved with the current entry, if any. */
function saved(): Place | undefined {
  const place = (history.state as { scroll?: Partial<Place> } | null)?.scroll;
  if (!place || !whole(place.y)) return undefined;
  return whole(place.block) && distance(place.into) ? { y: place.y, block: place.block, into: place.into } : { y: place.y };
}

/** Writes the place into the current entry, keeping what else its state holds. */
function save() {
  const state: unknown = history.state;
  history.replaceState({ ...(state && typeof state === 'object' ? state : {}), scroll: here() }, '');
}

/** Scrolls to a place: its block's top, laid out for real, and as far into it; else its pixels. */
function scrollToPlace(place: Place) {
  const block = place.block === undefined ? undefined : blocks()?.[place.block];
  if (block) scrollTo(0, block.getBoundingClientRect().top + scrollY + (place.into ?? 0));
  else scrollTo(0, place.y);
}

/**
 * Takes scroll restoration over from the browser: each entry's position is saved when scrolling
 * pauses, before the page leaves it (`leaving`) and as the document is hidden (a reload, another
 * site). Returns what the router calls.
 */
export function keepScroll() {
  history.scrollRestoration = 'manual';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => clearTimeout(timer);
  addEventListener('scroll', () => {
    cancel();
    timer = setTimeout(save, settleMs);
  }, { passive: true });
  addEventListener('pagehide', save);
  /** Scrolls to the current entry's saved place, or to `fallback` (a section, the top). */
  const restore = (fallback: () => void) => {
    const place = saved();
    layOutAll();
    if (place) scrollToPlace(place);
    else fallback();
  };
  return {
    /** Before a new entry is pushed: the one being left keeps its position. */
    leaving: () => {
      cancel();
      save();
    },
    /** The browser switched entries (back, forward): a pending save would go to the new one. */
    arrived: cancel,
    restore,
    /** The document as loaded: where it was, on a reload (a new load is not scrolled). */
    restoreOnLoad: () => {
      if (saved() !== undefined) restore(() => {});
    },
  };
}
