// The history this tab shows, opened on first use (a save, the panel, a signed-in session): an
// anonymous visitor's device-only copy (IndexedDB `handy-history`), the account's synced copy
// (`handy`, ./account.ts, loaded only then), or, where IndexedDB is unavailable, a copy in this
// tab's memory. Signing in and out switches between them; the panel follows `current`.
import type { Readable } from '../../lib/store';
import { messages } from '../../sync/errors';
import { openLocal, openMemory } from '../../sync/local';
import { storedToken } from '../../ui/credentials';
import type { SyncClient } from '../../sync/client';
import { fromFields, toFields, type Plain } from '../../sync/values';
import type { AccountCopy, AccountEvents } from './account';
import { sessionNews, type SessionHandlers } from './news';
import { historyStore, moveIntoAccount, type HistoryStore } from './store';

export const deviceDatabase = 'handy-history';

// The store in use (undefined until first use), readable with useStore. Not a lib/store: this
// module imports nothing of the page bundle, or the bundler splits React out of it into a chunk
// of its own, which costs every page about 1 KB.
let inUse: HistoryStore | undefined;
/** The account's synced copy while it is the one in use. */
let synced: SyncClient | undefined;
const followers = new Set<() => void>();
export const current: Readable<HistoryStore | undefined> = {
  get: () => inUse,
  subscribe(fn) {
    followers.add(fn);
    return () => void followers.delete(fn);
  },
};
function adopt(next: HistoryStore | AccountCopy) {
  inUse = 'client' in next ? next.history : next;
  synced = 'client' in next ? next.client : undefined;
  followers.forEach((fn) => fn());
}

// Every change of store runs in this chain, one at a time: a sign-in while the first save is
// opening the device copy must not leave two stores in use.
let chain: Promise<unknown> = Promise.resolve();
function serially<T>(step: () => Promise<T>): Promise<T> {
  const next = chain.then(step);
  chain = next.catch(() => undefined);
  return next;
}

// What the account feature (which shows the toasts, and signs out) does with the copy's news:
// its handlers, connected when it starts (./news.ts says why not only at a confirmed session).
const news = sessionNews();
const events: AccountEvents = {
  rejected: (reason) => news.rejected(reason),
  expired: () => news.expired(),
  erased: () => void leave(false),
};

/** The account feature's handlers of the copy's news, from now on. */
export const connect = (handlers: SessionHandlers) => news.connect(handlers);

/** A newer build opens a database with a newer schema: this tab reloads, once (the guard). */
export const newerSchema = () => void import('./account').then((a) => a.reloadForNewerSchema());

async function openDevice(): Promise<HistoryStore> {
  try {
    const channel = (name: string) => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name));
    return historyStore(await openLocal(deviceDatabase, channel, newerSchema), 'device');
  } catch (err) {
    console.warn(messages.unavailable, err);
    return historyStore(openMemory(), 'memory');
  }
}

/** With a stored session, the account's copy if this device keeps one (offline too); else the
 * device's. */
async function openFirst(): Promise<HistoryStore | AccountCopy> {
  if (storedToken() !== undefined) {
    try {
      const account = await import('./account');
      const uid = await account.keptOwner();
      if (uid) return await account.openAccount(uid, events);
    } catch (err) {
      console.warn('The account’s history could not be opened here:', err);
    }
  }
  return openDevice();
}

/** The history store, opened once. */
export function history(): Promise<HistoryStore> {
  return serially(async () => inUse ?? switchTo(await openFirst()));
}

function switchTo(next: HistoryStore | AccountCopy): HistoryStore {
  const before = inUse;
  adopt(next);
  if (before && before !== inUse) void before.close();
  return inUse!;
}

/** How many entries the device-only copy holds: the sign-in form offers to keep them. */
export async function deviceEntries(): Promise<number> {
  const now = await history();
  if (now.where !== 'account') return (await now.entries()).length;
  return 0;
}

export interface EnterOptions extends SessionHandlers {
  /** Move the device-only history into the account (sign-in's offer, default yes). */
  keep: boolean;
}

/** A signed-in session (a sign-in, or a stored one confirmed): the account's synced copy takes
 * over, with the device's entries if the visitor keeps them. */
export function enter(uid: string, options: EnterOptions): Promise<void> {
  news.connect(options);
  return serially(async () => {
    if (!inUse) switchTo(await openFirst());
    const now = inUse!;
    if (now.where === 'account' && now.owner === uid) return;
    const copy = await (await import('./account')).openAccount(uid, events);
    if (options.keep && now.where !== 'account') {
      const moved = await moveIntoAccount(now, copy.history);
      if (moved > 0) console.info(`${moved} history entries of this device moved into the account`);
    }
    switchTo(copy);
  });
}

/** The session ended. erase: a sign-out or an account deletion, so the account's copy leaves
 * this device (every tab). Else the token was refused: expired, or the account was deleted on
 * another device; the copy stays only if it holds changes not yet sent, for the same user's
 * next sign-in. The device's own history comes back. */
export function leave(erase: boolean): Promise<void> {
  return serially(async () => {
    const now = inUse;
    const unsent = now?.where === 'account' ? now.status().pending : 0;
    if (now?.where === 'account') await now.close();
    if (erase || (now?.where === 'account' && unsent === 0)) await (await import('./account')).eraseAccountCopy();
    if (now?.where === 'account') adopt(await openDevice());
  });
}

/** The signed-in user's own document, users/{uid}: their preferences, read from the synced copy
 * and changed there (offline too), for the account feature. */
export interface UserDocument {
  /** Its fields as plain values; {} when the copy has none yet. */
  read(): Promise<{ [key: string]: Plain }>;
  /** Sets the top-level field `name` (a merge): shown at once, sent when the server answers. */
  set(name: string, value: Plain): Promise<void>;
  /** Calls fn after every change to the copy; returns the unsubscribe. */
  subscribe(fn: () => void): () => void;
}

/** users/{uid} in the account's synced copy, opening it if this device keeps one (for uid, or
 * for whoever it keeps when uid is not known yet: a stored session not yet confirmed, perhaps
 * offline); undefined when it keeps none (the account feature then asks the server). */
export async function userDocument(uid?: string): Promise<UserDocument | undefined> {
  await history();
  const client = synced;
  const owner = inUse?.owner;
  if (!client || !owner || (uid !== undefined && owner !== uid)) return undefined;
  const path = `users/${owner}`;
  return {
    read: async () => fromFields((await client.get(path))?.fields ?? {}),
    set: (name, value) => client.write([{ kind: 'merge', path, fields: toFields({ [name]: value }), mask: [name] }]),
    subscribe: (fn) => client.subscribe(fn),
  };
}
