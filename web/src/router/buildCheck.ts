// Polls /builds/latest.json for a newer build. When one appears, the next navigation is a
// full page load (never interrupting the visitor mid-task).
import { connection } from './connection';

export interface BuildCheckOptions {
  buildId: string;
  onOutdated: (latestId: string) => void;
  firstDelayMs?: number;
  intervalMs?: number;
  fetch?: typeof fetch;
  effectiveType?: () => string | undefined;
}

/** Starts the check; returns a function that stops it. */
export function startBuildCheck({
  buildId,
  onOutdated,
  firstDelayMs = 60_000,
  intervalMs = 60 * 60_000,
  fetch: get = (...args) => fetch(...args),
  effectiveType = () => connection().effectiveType,
}: BuildCheckOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function check() {
    if (effectiveType() === 'slow-2g') return schedule();
    try {
      const res = await get(`/builds/latest.json?${Date.now()}`);
      if (!res.ok) throw new Error(`status ${res.status}`);
      const latest = (await res.json()) as { id?: unknown };
      if (typeof latest.id === 'string' && latest.id !== buildId) {
        onOutdated(latest.id);
        return; // nothing more to learn
      }
    } catch (err) {
      console.warn('Build check failed:', err);
    }
    schedule();
  }

  function schedule(delay = intervalMs) {
    if (!stopped) timer = setTimeout(() => void check(), delay);
  }

  schedule(firstDelayMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
