// A device-only copy with the client's interface: writes apply to IndexedDB at once and are
// never sent (an anonymous visitor's history). Other tabs hear of each change over a
// BroadcastChannel, as with the synced client.
import { Cache, type ReadDoc } from './cache';
import type { SyncClient, SyncStatus } from './client';
import { SyncError, messages } from './errors';
import type { Write } from './writes';

export type LocalClient = Pick<SyncClient, 'write' | 'collection' | 'subscribe' | 'status' | 'terminate'>;

export async function openLocal(name: string, channel?: (name: string) => BroadcastChannel | undefined): Promise<LocalClient> {
  const cache = await Cache.open(name);
  const ch = channel?.(`${name}:local`);
  const subscribers = new Set<() => void>();
  const notify = () => subscribers.forEach((fn) => fn());
  ch?.addEventListener('message', notify);
  let terminated = false;
  const live = () => {
    if (terminated) throw new SyncError('failed-precondition', messages.terminated);
  };
  const status: SyncStatus = { online: 'unknown', pending: 0 };
  return {
    async write(writes: Write[]) {
      live();
      await cache.writeLocal(writes);
      notify();
      ch?.postMessage('changed');
    },
    async collection(parent: string): Promise<ReadDoc[]> {
      live();
      return cache.collection(parent);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    status: () => status,
    async terminate() {
      terminated = true;
      ch?.close();
      cache.close();
    },
  };
}
