export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now. */
  flush(): void;
}

/** The live preview's rate: one call per frame. */
export const THROTTLE_MS = 16;

/**
 * Calls `fn` at once, then at most once per `ms` with the latest arguments: the last call is
 * never lost (it runs when the interval ends).
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms = THROTTLE_MS): Throttled<A> {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (!args) return;
    last = Date.now();
    fn(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    if (timer !== undefined) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  throttled.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  return throttled;
}
