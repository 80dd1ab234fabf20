// A device-only copy with the client's interface: writes apply to IndexedDB at once and are
// never sent (an anonymous visitor's history). Other tabs hear of each change over a
// BroadcastChannel, as with the synced client.
import { Cache, type ReadDoc } from './cache';
import type { SyncClient, SyncStatus } from './client';
import { SyncError, messages } from './errors';
import { applyWrite, type LocalDoc, type Write } from './writes';

export type LocalClient = Pick<SyncClient, 'write' | 'collection' | 'subscribe' | 'status' | 'terminate'>;

/** Where a device-only copy is kept: IndexedDB, or this tab's memory. */
interface Keeper {
  write(writes: Write[]): Promise<void>;
  collection(parent: string): Promise<ReadDoc[]>;
  close(): void;
}

/** The client's interface over a keeper; other tabs hear of each change over channel. */
function localClient(keeper: Keeper, channel?: BroadcastChannel): LocalClient {
  const subscribers = new Set<() => void>();
  const notify = () => subscribers.forEach((fn) => fn());
  channel?.addEventListener('message', notify);
  let terminated = false;
  const live = () => {
    if (terminated) throw new SyncError('failed-precondition', messages.terminated);
  };
  const status: SyncStatus = { online: 'unknown', pending: 0 };
  return {
    async write(writes: Write[]) {
      live();
      await keeper.write(writes);
      notify();
      channel?.postMessage('changed');
    },
    async collection(parent: string): Promise<ReadDoc[]> {
      live();
      return keeper.collection(parent);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    status: () => status,
    async terminate() {
      terminated = true;
      channel?.close();
      keeper.close();
    },
  };
}

export async function openLocal(
  name: string,
  channel?: (name: string) => BroadcastChannel | undefined,
  /** A newer build needs the database: reload (under the reload guard). */
  onNewerSchema?: () => void,
): Promise<LocalClient> {
  const cache = await Cache.open(name, { onBlocking: onNewerSchema });
  return localClient({ write: (w) => cache.writeLocal(w), collection: (p) => cache.collection(p), close: () => cache.close() }, channel?.(`${name}:local`));
}

/**
 * A copy in memory, for this tab only, where IndexedDB is unavailable (some private modes):
 * the history works until the tab closes, and the panel says it is not kept.
 */
export function openMemory(): LocalClient {
  const docs = new Map<string, LocalDoc>();
  return localClient({
    async write(writes) {
      for (const w of writes) {
        const after = applyWrite(docs.get(w.path) ?? null, w);
        if (after) docs.set(w.path, after);
        else docs.delete(w.path);
      }
    },
    async collection(parent) {
      return [...docs.values()]
        .filter((d) => d.path.slice(0, d.path.lastIndexOf('/')) === parent)
        .sort((a, b) => (a.path < b.path ? -1 : 1))
        .map((d) => ({ ...structuredClone(d), fromCache: true, hasPendingWrites: false }));
    },
    close() {},
  });
}
