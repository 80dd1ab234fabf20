// One full reload per path per 10 seconds: enough to pick up a new build after a chunk
// failure, never a reload loop.
export const reloadWindowMs = 10_000;

const key = (path: string) => `handy:reload:${path}`;

/**
 * Reports whether a reload of `path` is allowed now, and if so records it. Without
 * sessionStorage (disabled, full) it allows none, so that it cannot loop.
 */
export function claimReload(path: string, storage: Storage | undefined, now = Date.now()): boolean {
  try {
    if (!storage) return false;
    const last = Number(storage.getItem(key(path)));
    if (last && now - last < reloadWindowMs) return false;
    storage.setItem(key(path), String(now));
    return true;
  } catch {
    return false;
  }
}

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Loads `path` in full once (guarded); returns false when the guard refused. */
export function reloadOnce(path: string): boolean {
  if (!claimReload(path, sessionStore())) return false;
  window.location.assign(path);
  return true;
}
