// The sync engine of one tab: it sends the outbox to POST /api/v1/db/commit in order, one
// batch at a time with the cache's clientId and the batch's id (a batch resent after a lost
// answer is applied once, and answered as the first time), and long-polls /api/v1/db/listen
// into the cache. Temporary failures (no network, 503, 429) are retried with backoff; a batch
// the server refuses for good is dropped from the outbox, which undoes it, and reported. Only
// the tab elected by tabs.ts runs an engine.
import type { Batch, Cache, Limbo, RemoteChange } from './cache';
import { SyncError, permanent, type SyncCode } from './errors';
import type { Settings } from './settings';
import { toServer } from './writes';

export type OnlineState = 'unknown' | 'online' | 'offline';

/** The commit's answer, as the API sends it. */
export interface CommitAnswer {
  version: string;
  commitTime: string;
}

/** A document, as the API sends it. */
export interface RemoteDocument {
  name: string;
  fields?: RemoteChange['fields'];
  updateTime: string;
  version: string;
}

/** The listen's answer, as the API sends it. */
export interface ListenAnswer {
  reset: boolean;
  version: string;
  /** Cut at the answer's bounds: the next listen continues it, given horizon (Remote.listen's
   * continued). */
  more?: boolean;
  horizon?: string;
  changes: { name: string; deleted?: boolean; fields?: RemoteChange['fields']; updateTime: string; version: string }[];
}

/** The document API, as the engine needs it. Failures are SyncErrors; no answer at all is
 * `unavailable`. */
export interface Remote {
  commit(body: { writes: object[]; clientId: string; batchId: number }): Promise<CommitAnswer>;
  /** One document, or null when there is none. */
  get(path: string, signal: AbortSignal): Promise<RemoteDocument | null>;
  /** onOpen: the server took the listen (its headers arrived): it answers, so we are online.
   * continued: the `horizon` of the answer that brought since, when it had `more` (a reset or
   * the documents from 0, too large for one answer): the server goes on with it rather than
   * answering its first part again. */
  listen(since: number, timeoutSeconds: number, signal: AbortSignal, onOpen?: () => void, continued?: string): Promise<ListenAnswer>;
}

export interface EngineDeps {
  cache: Cache;
  remote: Remote;
  settings: Settings;
  /** The cache changed: the views re-read it (here and, through tabs.ts, in the other tabs). */
  onChange: () => void;
  /** A group of batches was refused for good and undone. */
  onRejected: (batches: Batch[], error: SyncError) => void;
  onOnline: (state: OnlineState) => void;
  /** The token is no longer valid: the engine stops. */
  onUnauthenticated: () => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Backoff before the n-th retry (0-based): 1 s doubling to 30 s, with jitter (half to all of it),
 * or the server's Retry-After when it gave one. */
export function backoff(n: number, random: () => number, retryAfterMs = 0): number {
  return Math.max(retryAfterMs, Math.min(30_000, 1000 * 2 ** n) * (0.5 + random() / 2));
}

/** Calls fn once signal aborts, at once if it has; returns what stops listening. A wait on
 * the run's long-lived signal must stop when it ends, or each one leaves a listener behind. */
function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => undefined;
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    onAbort(signal, () => (clearTimeout(timer), resolve()));
  });

export class Engine {
  private state: OnlineState = 'unknown';
  private wake: (() => void) | undefined;
  /** A kick since the send loop last read the outbox (kick). */
  private kicked = false;
  /** Ends the backoff waits at once (the browser is back online). */
  private retry = new AbortController();
  private readonly sleep: NonNullable<EngineDeps['sleep']>;
  private readonly random: () => number;

  constructor(private readonly deps: EngineDeps) {
    this.sleep = deps.sleep ?? defaultSleep;
    this.random = deps.random ?? Math.random;
  }

  get online(): OnlineState {
    return this.state;
  }

  /** New batches are in the outbox: send them now. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** The network is back: stop waiting out the backoff, send and listen now. */
  retryNow(): void {
    this.retry.abort();
    this.retry = new AbortController();
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    const either = new AbortController();
    const end = () => either.abort();
    const stops = [onAbort(signal, end), onAbort(this.retry.signal, end)];
    try {
      await this.sleep(ms, either.signal);
    } finally {
      for (const stop of stops) stop();
    }
  }

  /** Runs the outbox and the listen until signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.sendLoop(signal), this.listenLoop(signal)]);
  }

  private setOnline(s: OnlineState): void {
    if (s === this.state) return;
    this.state = s;
    this.deps.onOnline(s);
  }

  private async sendLoop(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      this.kicked = false;
      const group = await this.deps.cache.nextGroup();
      if (group.length === 0) {
        // A batch written while the outbox was read is not in group, and its kick found no one
        // waiting yet: look again rather than sleep until the next write (a lost wake-up that
        // left a sign-up's moved history unsent, "Connecting…", in CI).
        if (this.kicked) continue;
        let stop: () => void = () => undefined;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          stop = onAbort(signal, resolve);
        });
        stop();
        this.wake = undefined;
        continue;
      }
      const last = group[group.length - 1].batchId;
      try {
        await this.send(group);
        failures = 0;
      } catch (e) {
        const err = asSyncError(e);
        if (err.code === 'unauthenticated') return this.deps.onUnauthenticated();
        if (permanent(err.code) && group.length > 1) {
          await this.deps.cache.split(last);
          continue;
        }
        if (permanent(err.code)) {
          const undone = await this.deps.cache.reject(last);
          this.deps.onChange();
          this.deps.onRejected(undone, err);
          continue;
        }
        await this.pause(backoff(failures++, this.random, retryAfter(e)), signal);
      }
    }
  }

  /** Sends a group of batches as one commit, under its last batch's id: the batches queued
   * while offline go out in a few round trips, not one each. */
  private async send(group: Batch[]): Promise<void> {
    const { clientId } = await this.deps.cache.state();
    const batchId = group[group.length - 1].batchId;
    try {
      const writes = group.flatMap((b) => b.writes.map(toServer));
      const answer = await this.deps.remote.commit({ writes, clientId, batchId });
      this.setOnline('online');
      await this.deps.cache.acknowledge(batchId, Number(answer.version), answer.commitTime);
      this.deps.onChange();
    } catch (e) {
      if (asSyncError(e).code === 'unavailable') this.setOnline('offline');
      throw e;
    }
  }

  /** Asks the server for each document in limbo, at most MAX_REVALIDATIONS at once: one it no
   * longer has goes from the copy. A failure leaves the rest as they are, to the next reset. */
  private async revalidate(limbo: Limbo[], signal: AbortSignal): Promise<void> {
    for (let i = 0; i < limbo.length && !signal.aborted; i += MAX_REVALIDATIONS) {
      await Promise.all(
        limbo.slice(i, i + MAX_REVALIDATIONS).map(async (doc) => {
          const now = await this.deps.remote.get(doc.path, signal);
          await this.deps.cache.revalidated(doc, now && { path: now.name, fields: now.fields, updateTime: now.updateTime, version: Number(now.version) });
        }),
      );
      this.deps.onChange();
    }
  }

  private async listenLoop(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      const { since, horizon } = await this.deps.cache.state();
      try {
        const a = await this.deps.remote.listen(since, this.deps.settings.longPollTimeoutSeconds, signal, () => this.setOnline('online'), horizon);
        this.setOnline('online');
        failures = 0;
        const next = a.more ? a.horizon : undefined;
        if (a.reset || a.changes.length > 0 || Number(a.version) !== since || next !== horizon) {
          const changes: RemoteChange[] = a.changes.map((c) => ({
            path: c.name,
            deleted: c.deleted,
            fields: c.fields,
            updateTime: c.updateTime,
            version: Number(c.version),
          }));
          // An answer to since 0 holds the live documents only, not the deletions, so it is
          // taken as a reset: acknowledgements may have put documents in the copy that were
          // deleted before that answer's version.
          const limbo = await this.deps.cache.applyRemote(changes, Number(a.version), a.reset || since === 0, next);
          this.deps.onChange();
          if (limbo.length > 0) await this.revalidate(limbo, signal);
        }
      } catch (e) {
        if (signal.aborted) return;
        const err = asSyncError(e);
        if (err.code === 'unauthenticated') return this.deps.onUnauthenticated();
        if (err.code === 'unavailable') this.setOnline('offline');
        await this.pause(backoff(failures++, this.random, retryAfter(e)), signal);
      }
    }
  }
}

/** How many documents in limbo are asked about at once. */
export const MAX_REVALIDATIONS = 100;

/** Any failure as a SyncError: what is not one (a bug, a TypeError from fetch) counts as no
 * answer, so it is retried rather than losing the batch. */
export function asSyncError(e: unknown): SyncError {
  if (e instanceof SyncError) return e;
  return new SyncError('unavailable', e instanceof Error ? e.message : String(e));
}

/** The Retry-After a SyncError carries, in ms. */
function retryAfter(e: unknown): number {
  return e instanceof RetryableError ? e.retryAfterMs : 0;
}

/** A SyncError with the server's Retry-After. */
export class RetryableError extends SyncError {
  constructor(
    code: SyncCode,
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(code, message);
  }
}
