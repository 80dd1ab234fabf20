// The data layer as the features use it: writes applied at once and kept durably until the
// server has them, reads from the local copy (marked so) with the pending writes on top, and a
// subscription to every change, whichever tab or device made it. Every tab may write; one tab at
// a time (the holder of a Web Lock) runs the engine, and tells the others over a
// BroadcastChannel. A tab that dies frees the lock, so there is no lease to expire.
import { Cache, type Batch, type ReadDoc } from './cache';
import { Engine, type EngineDeps, type OnlineState, type Remote, type RemoteDocument } from './engine';
import { SyncError, messages } from './errors';
import { CACHE_UNLIMITED, validateSettings, type Settings } from './settings';
import type { Write } from './writes';

export interface SyncStatus {
  online: OnlineState;
  /** Batches waiting for the server. */
  pending: number;
}

export interface ClientDeps {
  /** The IndexedDB database's name. */
  name: string;
  /** The signed-in user: a copy another user left behind is erased (Cache.claim). */
  owner?: string;
  remote: Remote;
  settings?: Partial<Settings>;
  /** navigator.locks, or undefined where the Web Locks API is missing (then every tab syncs). */
  locks?: Pick<LockManager, 'request'>;
  /** A BroadcastChannel of that name, or undefined where there is none. */
  channel?: (name: string) => BroadcastChannel | undefined;
  onRejected?: (batches: Batch[], error: SyncError) => void;
  onUnauthenticated?: () => void;
  /** A newer build needs the database: reload (under the reload guard). */
  onNewerSchema?: () => void;
  /** Another tab erased the database (a sign-out): this client has terminated. */
  onErased?: () => void;
  /** The window whose 'online' event ends the backoff at once; undefined in tests. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** The engine's wait between retries; the fault test shortens it. */
  sleep?: EngineDeps['sleep'];
}

// 'changed': the copy changed (re-read it); 'written': a follower queued a batch (the syncing
// tab sends it); 'online': the syncing tab's view of the server, sent when it changes and when
// a tab that just opened asks ('ask': it would otherwise stay "connecting" until a change).
type Message = { type: 'changed' } | { type: 'written' } | { type: 'online'; online: OnlineState } | { type: 'ask' };

export interface SyncClient {
  write(writes: Write[]): Promise<void>;
  /** One document: from the copy with the pending writes on top (fromCache), or with source
   * "server" from the server (not fromCache), which fails offline instead of using the copy. */
  get(path: string, options?: { source?: 'default' | 'server' }): Promise<ReadDoc | null>;
  collection(parent: string): Promise<ReadDoc[]>;
  /** Calls fn after every change to the copy or the status; returns the unsubscribe. */
  subscribe(fn: () => void): () => void;
  status(): SyncStatus;
  /** Stops syncing and closes the database; every call afterwards fails. */
  terminate(): Promise<void>;
  /** Erases this device's copy (sign-out), then terminates. */
  clearAndTerminate(): Promise<void>;
}

export async function openClient(deps: ClientDeps): Promise<SyncClient> {
  const settings = validateSettings(deps.settings);
  const cache = await Cache.open(deps.name, {
    onBlocking: () => deps.onNewerSchema?.(),
    onDeleted: () => void client.terminate().then(() => deps.onErased?.()),
  });
  if (deps.owner !== undefined) {
    const lost = await cache.claim(deps.owner);
    if (lost > 0) console.warn(`another user's ${lost} unsent changes were left on this device; they are erased`);
  }
  const channel = deps.channel?.(`${deps.name}:sync`);
  const subscribers = new Set<() => void>();
  let status: SyncStatus = { online: 'unknown', pending: (await cache.pending()).length };
  let terminated = false;
  const stop = new AbortController();

  const notify = () => subscribers.forEach((fn) => fn());
  const post = (m: Message) => channel?.postMessage(m);
  // Each tab counts the pending batches in the shared database itself; only the syncing tab
  // knows whether the server answers, and tells the others.
  // Work after a change (recounting, eviction) runs one piece at a time, and terminate waits
  // for it before closing the database.
  let housekeeping = Promise.resolve();
  const later = (work: () => Promise<void>) => {
    housekeeping = housekeeping
      .then(() => (terminated ? undefined : work()))
      .catch((err: unknown) => console.warn('sync housekeeping failed:', err));
  };
  const refreshPending = () =>
    later(async () => {
      status = { ...status, pending: (await cache.pending()).length };
      notify();
    });

  const engine = new Engine({
    cache,
    remote: deps.remote,
    settings,
    onChange: () => {
      post({ type: 'changed' });
      refreshPending();
      if (settings.cacheSizeBytes !== CACHE_UNLIMITED) later(async () => void (await cache.evict(settings.cacheSizeBytes)));
    },
    onRejected: (b, e) => deps.onRejected?.(b, e),
    onOnline: (online) => {
      status = { ...status, online };
      post({ type: 'online', online });
      notify();
    },
    onUnauthenticated: () => deps.onUnauthenticated?.(),
    sleep: deps.sleep,
  });

  let leading = false;
  channel?.addEventListener('message', (e: MessageEvent<Message>) => {
    if (e.data.type === 'ask') return void (leading && post({ type: 'online', online: engine.online }));
    if (e.data.type === 'written') engine.kick();
    if (e.data.type === 'online') status = { ...status, online: e.data.online };
    refreshPending();
  });
  post({ type: 'ask' });

  const online = () => engine.retryNow();
  deps.events?.addEventListener('online', online);
  const lead = () => {
    leading = true;
    return engine.run(stop.signal).finally(() => (leading = false));
  };
  const running = deps.locks
    ? deps.locks.request(`${deps.name}:sync`, { signal: stop.signal }, lead).catch(() => undefined)
    : lead();

  const live = () => {
    if (terminated) throw new SyncError('failed-precondition', messages.terminated);
  };

  const client: SyncClient = {
    async write(writes) {
      live();
      await cache.write(writes);
      notify();
      post({ type: 'written' });
      engine.kick();
      refreshPending();
      await housekeeping;
    },
    async get(path, options) {
      live();
      if (options?.source !== 'server') return cache.get(path);
      // From the server itself, marked so: it fails rather than answer from the copy.
      if (status.online === 'offline') throw new SyncError('unavailable', messages.offlineRead);
      let doc: RemoteDocument | null;
      try {
        doc = await deps.remote.get(path, stop.signal);
      } catch (e) {
        throw e instanceof SyncError && e.code !== 'unavailable' ? e : new SyncError('unavailable', messages.offlineRead);
      }
      return doc && { path, fields: doc.fields ?? {}, fromCache: false, hasPendingWrites: false };
    },
    async collection(parent) {
      live();
      return cache.collection(parent);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    status: () => status,
    async terminate() {
      if (terminated) return;
      terminated = true;
      stop.abort();
      deps.events?.removeEventListener('online', online);
      await running;
      await housekeeping;
      channel?.close();
      cache.close();
    },
    async clearAndTerminate() {
      live();
      stop.abort();
      await running;
      await cache.clear();
      await client.terminate();
    },
  };
  return client;
}
