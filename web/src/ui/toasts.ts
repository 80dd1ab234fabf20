// Transient messages (toasts): what is shown, and when each one goes. A toast closes itself
// after its duration unless the visitor is reading it: hovering it or having focus in it holds
// its timer, which then resumes with the time that was left. The timing lives here, not in the
// component, so that it is tested with fake timers.
import { createStore } from '../lib/store';
import { nextZIndex } from './zIndex';

export type ToastType = 'info' | 'success' | 'warning' | 'error';

/** What holds a toast's timer; the timer runs only while nothing holds it. */
export type HoldReason = 'hover' | 'focus';

export interface Toast {
  readonly id: number;
  readonly message: string;
  readonly type: ToastType;
  /** Taken from the shared counter when shown, so a new toast is above what opened before. */
  readonly zIndex: number;
}

export interface ToastOptions {
  /** Default `info`. */
  type?: ToastType;
  /** Milliseconds before it closes itself; default 3000; 0 or less: only the visitor closes it. */
  duration?: number;
}

/** Spec: 3000 ms by default. */
export const defaultToastDuration = 3000;

export type ToastStore = ReturnType<typeof createToastStore>;

interface Timer {
  remaining: number;
  startedAt: number;
  handle?: ReturnType<typeof setTimeout>;
  holds: Set<HoldReason>;
}

export function createToastStore(zIndex: () => number = nextZIndex) {
  const store = createStore<readonly Toast[]>([]); // oldest first: the order on screen, top to bottom
  let lastId = 0;
  const timers = new Map<number, Timer>();

  const start = (id: number, timer: Timer) => {
    timer.startedAt = Date.now();
    timer.handle = setTimeout(() => close(id), timer.remaining);
  };

  function close(id: number) {
    const timer = timers.get(id);
    clearTimeout(timer?.handle);
    timers.delete(id);
    const toasts = store.get();
    const next = toasts.filter((t) => t.id !== id);
    if (next.length !== toasts.length) store.set(next);
  }

  return {
    /** Shows a message; returns its id for `close`. */
    show(message: string, { type = 'info', duration = defaultToastDuration }: ToastOptions = {}): number {
      const id = ++lastId;
      if (duration > 0) {
        const timer: Timer = { remaining: duration, startedAt: 0, holds: new Set() };
        timers.set(id, timer);
        start(id, timer);
      }
      store.set((toasts) => [...toasts, { id, message, type, zIndex: zIndex() }]);
      return id;
    },
    close,
    /** Closes the most recent toast (Esc); false when there is none. */
    closeNewest(): boolean {
      const newest = store.get().at(-1);
      if (newest) close(newest.id);
      return newest !== undefined;
    },
    /** Holds a toast's timer for a reason (hover, focus); repeated holds are harmless. */
    pause(id: number, reason: HoldReason = 'hover') {
      const timer = timers.get(id);
      if (!timer || timer.holds.has(reason)) return;
      if (timer.holds.size === 0) {
        clearTimeout(timer.handle);
        timer.remaining -= Date.now() - timer.startedAt;
      }
      timer.holds.add(reason);
    },
    /** Releases a hold; when none is left the timer runs on with the time that was left. */
    resume(id: number, reason: HoldReason = 'hover') {
      const timer = timers.get(id);
      if (!timer?.holds.delete(reason) || timer.holds.size > 0) return;
      start(id, timer);
    },
    get: store.get,
    subscribe: store.subscribe,
  };
}

/** The page's one toast stack, used by the HTTP client and any component. */
export const toasts = createToastStore();
