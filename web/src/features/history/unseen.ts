// The header badge's count: entries saved since the History panel was last opened. Kept in
// localStorage (named in the privacy policy) so that every page shows it at once without
// loading the history itself, and every tab follows it through the storage event.
import { createStore } from '../../lib/store';

export const unseenKey = 'handy:history:unseen';

const read = (): number => {
  try {
    return Math.max(0, Number(globalThis.localStorage?.getItem(unseenKey)) || 0);
  } catch {
    return 0; // storage refused: no badge
  }
};

const write = (n: number) => {
  try {
    if (n > 0) localStorage.setItem(unseenKey, String(n));
    else localStorage.removeItem(unseenKey);
  } catch {
    // storage refused: the badge lives as long as the page
  }
  unseen.set(n);
};

/** The count; 0 while prerendering (hydration then reads the stored one). */
export const unseen = createStore(0);

let started = false;
/** Reads the stored count and follows other tabs' changes; once per page. */
export function followUnseen(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  unseen.set(read());
  window.addEventListener('storage', (e) => {
    if (e.key === unseenKey || e.key === null) unseen.set(read());
  });
}

export const addUnseen = (n = 1) => write(read() + n);
export const resetUnseen = () => write(0);
