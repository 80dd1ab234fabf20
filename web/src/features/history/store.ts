// The history over the data layer: the anonymous visitor's device-only copy, or the signed-in
// account's synced users/{uid}/history. Both are the same documents; only the client differs.
import { splitWrites } from '../../sync/cache';
import type { SyncStatus } from '../../sync/client';
import type { LocalClient } from '../../sync/local';
import { entryFields, entryOf, entryPath, historyCollection, localOwner } from './logic/documents';
import { newestFirst, repeatsNewest, type HistoryEntry } from './logic/entries';

/** Where the entries are kept: this browser, the account (synced), or this tab's memory only. */
export type Where = 'device' | 'account' | 'memory';

export interface HistoryStore {
  where: Where;
  /** The user whose history it is ("local" for the device's). */
  owner: string;
  /** The sync state: online or not, and how many changes wait to be sent (account only). */
  status(): SyncStatus;
  /** Newest first. */
  entries(): Promise<HistoryEntry[]>;
  /** Saves e, unless it repeats the newest entry; says whether it saved. */
  save(e: HistoryEntry): Promise<boolean>;
  remove(id: string): Promise<void>;
  /** Puts back entries removed (undo). */
  restore(entries: HistoryEntry[]): Promise<void>;
  clear(): Promise<void>;
  /** Calls fn after every change to the entries or to the status. */
  subscribe(fn: () => void): () => void;
  /** Closes the data underneath; the store cannot be used afterwards. */
  close(): Promise<void>;
}

export function historyStore(client: LocalClient, where: Where, uid: string = localOwner): HistoryStore {
  const entries = async () => {
    const docs = await client.collection(historyCollection(uid));
    return newestFirst(docs.flatMap((d) => entryOf(d.path, d.fields) ?? []));
  };
  const put = async (list: HistoryEntry[]) => {
    // Moving or restoring a long history goes in batches a commit takes whole.
    for (const batch of splitWrites(list.map((e) => ({ kind: 'set', path: entryPath(uid, e.id), fields: entryFields(e) })))) {
      await client.write(batch);
    }
  };
  return {
    where,
    owner: uid,
    status: () => client.status(),
    entries,
    async save(e) {
      if (repeatsNewest(await entries(), e)) return false;
      await put([e]);
      return true;
    },
    remove: (id) => client.write([{ kind: 'delete', path: entryPath(uid, id) }]),
    restore: put,
    async clear() {
      const all = await entries();
      for (const batch of splitWrites(all.map((e) => ({ kind: 'delete', path: entryPath(uid, e.id) })))) {
        await client.write(batch);
      }
    },
    subscribe: (fn) => client.subscribe(fn),
    close: () => client.terminate(),
  };
}

/** At sign-in, when the visitor keeps their history: every entry of the device-only copy goes
 * into the account (queued, so it works offline too), then the copy is emptied. */
export async function moveIntoAccount(local: HistoryStore, account: HistoryStore): Promise<number> {
  const all = await local.entries();
  await account.restore(all);
  await local.clear();
  return all.length;
}
