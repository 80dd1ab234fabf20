// Brings a page's islands alive (page/Island.tsx), each when its placeholder says: at load, at
// idle or when it comes into view, one per task. Until an island is alive, a click or a form's
// submission inside it is held, the island hydrates at once, and the event is then replayed on
// the same element: nothing a visitor does before hydration is lost. Part of the entry, so it
// imports no React: the hydrator (./live.tsx) loads only when the first island needs it.
import type { When } from '../page/Island';

export interface Hydrator {
  /** Hydrates the island of el; resolves once it is hydrated, with what unmounts it. urgent: a
   * visitor waits for it (an event is held), so React does not yield while hydrating. */
  hydrate(el: HTMLElement, urgent: boolean): Promise<() => void>;
}

interface Entry {
  state: 'waiting' | 'hydrating' | 'live' | 'gone';
  done?: Promise<void>;
  /** Called once the island is alive, failed or gone, however it was woken. */
  settle: () => void;
  unmount?: () => void;
  /** Stops waiting for idle or for the island to come into view. */
  cancel?: () => void;
}

const selector = '[data-island]';

/** Resolves in a task of its own, after what the browser has queued (input first). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const onIdle = (fn: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 200);
  return () => clearTimeout(id);
};

export function createIslands(hydrator: () => Promise<Hydrator>) {
  const entries = new Map<HTMLElement, Entry>();
  let queue = Promise.resolve();

  function wake(el: HTMLElement, urgent: boolean): Promise<void> {
    const entry = entries.get(el);
    if (!entry) return Promise.resolve();
    if (entry.state !== 'waiting') return entry.done ?? Promise.resolve();
    entry.state = 'hydrating';
    entry.cancel?.();
    entry.done = hydrator()
      .then((h) => h.hydrate(el, urgent))
      .then(
        (unmount) => {
          if (entry.state === 'gone') return unmount(); // navigated away meanwhile
          entry.state = 'live';
          entry.unmount = unmount;
        },
        (err: unknown) => {
          // The island stays as prerendered: links and native controls still work.
          entry.state = 'gone';
          console.error(`The island ${el.dataset.island} failed to start:`, err);
        },
      )
      .finally(entry.settle);
    return entry.done;
  }

  /** One island after another, each starting in a task of its own. */
  const enqueue = (el: HTMLElement) => {
    queue = queue.then(nextTask).then(() => wake(el, false));
    return queue;
  };

  // Held until the island is alive: a click (a key press on a button clicks it too) and a
  // form's submission, which would otherwise leave the page.
  const hold = (e: Event) => {
    const el = (e.target as Element | null)?.closest?.<HTMLElement>(selector);
    const entry = el && entries.get(el);
    if (!el || !entry || entry.state === 'live' || entry.state === 'gone') return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const target = e.target as Element;
    const submitter = e instanceof SubmitEvent ? e.submitter : null;
    void wake(el, true).then(() => {
      if (!target.isConnected) return;
      if (e.type === 'submit') (target as HTMLFormElement).requestSubmit(submitter);
      else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, view: window }));
    });
  };
  document.addEventListener('click', hold, true);
  document.addEventListener('submit', hold, true);

  return {
    /** Schedules every island in root not yet known; resolves once those that start at load
     * or at idle are alive (or failed). */
    watch(root: ParentNode): Promise<void> {
      const started: Promise<void>[] = [];
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        if (entries.has(el)) continue;
        const when = (el.dataset.when ?? 'load') as When;
        let settle!: () => void;
        const settled = new Promise<void>((resolve) => (settle = resolve));
        const entry: Entry = { state: 'waiting', settle };
        entries.set(el, entry);
        // A click may wake it first: what is awaited is the island settled, however it came.
        if (when === 'load') void enqueue(el);
        if (when === 'idle') entry.cancel = onIdle(() => void enqueue(el));
        if (when !== 'visible') started.push(settled);
        if (when === 'visible') {
          const seen = new IntersectionObserver((found) => {
            if (found.some((f) => f.isIntersecting)) void enqueue(el);
          });
          seen.observe(el);
          entry.cancel = () => seen.disconnect();
        }
      }
      return Promise.all(started).then(() => undefined);
    },
    /** Stops the islands in root (before it is replaced): unmounted, or never started. */
    unwatch(root: ParentNode) {
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        const entry = entries.get(el);
        if (!entry) continue;
        entries.delete(el);
        entry.cancel?.();
        entry.unmount?.();
        entry.state = 'gone';
        entry.settle();
      }
    },
  };
}

export type Islands = ReturnType<typeof createIslands>;
