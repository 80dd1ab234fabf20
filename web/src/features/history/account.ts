// The signed-in account's history: users/{uid}/history in the synced copy (IndexedDB `handy`),
// sent to and heard from /api/v1/db by the data layer. Loaded only for a signed-in visitor, so
// an anonymous one never downloads the sync engine.
import { reloadOnce } from '../../router/reloadGuard';
import { Cache, deleteCache } from '../../sync/cache';
import { openClient, type SyncClient } from '../../sync/client';
import { createRemote } from '../../sync/remote';
import { readCookie, storedToken, xsrfCookie } from '../../ui/credentials';
import { historyStore, type HistoryStore } from './store';

export const accountDatabase = 'handy';

/** What the synced copy tells the page. */
export interface AccountEvents {
  /** The server refused a change for good; it was undone. */
  rejected(reason: string): void;
  /** The server no longer knows the token. */
  expired(): void;
  /** Another tab signed out and erased the copy. */
  erased(): void;
}

/** The user this device keeps a synced copy for, if any: a signed-in visitor's history opens
 * from it at once, offline too, before the server confirms the session. */
export async function keptOwner(): Promise<string | undefined> {
  const cache = await Cache.open(accountDatabase);
  try {
    return (await cache.state()).owner;
  } finally {
    cache.close();
  }
}

/** The account's synced copy, and its history. */
export interface AccountCopy {
  client: SyncClient;
  history: HistoryStore;
}

export async function openAccount(uid: string, events: AccountEvents): Promise<AccountCopy> {
  const client = await openClient({
    name: accountDatabase,
    owner: uid,
    remote: createRemote({ fetch: (input, init) => fetch(input, init), token: () => storedToken(), xsrf: () => readCookie(xsrfCookie) }),
    locks: typeof navigator !== 'undefined' ? navigator.locks : undefined,
    channel: (name) => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name)),
    events: window,
    onRejected: (_batches, error) => events.rejected(error.message),
    onUnauthenticated: () => events.expired(),
    onNewerSchema: reloadForNewerSchema,
    onErased: () => events.erased(),
  });
  return { client, history: historyStore(client, 'account', uid) };
}

/** A newer build opens one of the history's databases with a newer schema: this tab reloads,
 * once (the reload guard). Here rather than in runtime.ts, which must not import the page's
 * modules (docs/decisions.md). */
export const reloadForNewerSchema = () => void reloadOnce(location.pathname + location.search);

/** Erases the synced copy from this device (sign-out, account deletion); other tabs close it. */
export const eraseAccountCopy = () => deleteCache(accountDatabase);
