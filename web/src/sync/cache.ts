// The local copy of the signed-in user's documents, in IndexedDB (through idb): the server's
// documents as last heard (`remote`), the writes not yet acknowledged (`outbox`, one batch per
// write call, each stored in the same transaction as its id), and the sync state (`meta`).
// What the visitor sees is the remote copy with the outbox applied on top, so a batch the
// server rejects is undone by dropping it, and an acknowledged one changes nothing on screen.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import { limits } from '../lib/site';
import { SyncError, messages } from './errors';
import type { Fields } from './values';
import { applyWrite, type LocalDoc, type Write } from './writes';

/** A document as the server last sent it. */
export interface RemoteDoc {
  path: string;
  parent: string;
  fields: Fields;
  updateTime: string;
  version: number;
  /** Bytes of its fields' JSON, for the cache size. */
  size: number;
  /** When it last changed here (ms): eviction takes the least recently changed first. */
  usedAt: number;
}

/** One call's writes, waiting for the server's acknowledgement. */
export interface Batch {
  batchId: number;
  writes: Write[];
}

/** A change from the listen: a document's new state, or its deletion. */
export interface RemoteChange {
  path: string;
  deleted?: boolean;
  fields?: Fields;
  updateTime: string;
  version: number;
}

/** A document of the copy that a reset answer did not bring, at the version the copy has. */
export interface Limbo {
  path: string;
  version: number;
}

/** A document as read: with whether it came from the cache and whether writes are pending. */
export interface ReadDoc extends LocalDoc {
  /** From the local copy (true), or straight from the server. */
  fromCache: boolean;
  hasPendingWrites: boolean;
}

interface State {
  clientId: string;
  nextBatchId: number;
  /** The version the listen resumes from. */
  since: number;
  /** The answer that brought since was cut at its bounds: its horizon, with which the next
   * listen continues it. */
  horizon?: string;
  /** The user whose documents these are (claim). */
  owner?: string;
  /** The last batch of the group being sent: until it is answered, a resend sends exactly the
   * same batches under the same id, whichever tab sends it, so the server applies it once. */
  sending?: number;
  /** Batches up to this one go alone: their group was refused, and each gets its own answer. */
  alone?: number;
}

/** The most writes one commit may carry (the server's limit, site.json's), and a bound on its
 * body: the JSON of a group's writes, in UTF-16 code units, at most 3 UTF-8 bytes each, keeps a
 * commit's body near 3 MB at worst, under the server's 4 MiB (docs/decisions.md). */
export const MAX_GROUP_WRITES: number = limits.maxWritesPerCommit;
export const MAX_GROUP_BYTES = 1_000_000;

/** Splits writes into batches the outbox sends whole: each at most MAX_GROUP_WRITES writes and
 * MAX_GROUP_BYTES of JSON, as the outbox measures a group, so that a batch never makes a
 * commit larger than the server takes (the outbox sends a batch alone when it is larger). */
export function splitWrites(writes: Write[]): Write[][] {
  const batches: Write[][] = [];
  let batch: Write[] = [];
  let bytes = 1; // "[" and "]", less the last ","
  for (const w of writes) {
    const size = JSON.stringify(w).length + 1;
    if (batch.length > 0 && (batch.length >= MAX_GROUP_WRITES || bytes + size > MAX_GROUP_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 1;
    }
    batch.push(w);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

interface Schema extends DBSchema {
  remote: { key: string; value: RemoteDoc; indexes: { parent: string; usedAt: number } };
  outbox: { key: number; value: Batch };
  meta: { key: 'state'; value: State };
}

/** The schema's version: a newer build that raises it makes older tabs reload (onBlocking). */
export const SCHEMA_VERSION = 1;

export interface OpenOptions {
  /** A newer build wants the database: this connection is about to close. */
  onBlocking?: () => void;
  /** Another tab deletes the database (a sign-out): this connection is about to close. */
  onDeleted?: () => void;
  now?: () => number;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'));

export class Cache {
  private constructor(
    private readonly db: IDBPDatabase<Schema>,
    private readonly now: () => number,
  ) {}

  /** Opens (creating) the database called name. */
  static async open(name: string, options: OpenOptions = {}): Promise<Cache> {
    const db = await openDB<Schema>(name, SCHEMA_VERSION, {
      upgrade(db) {
        const remote = db.createObjectStore('remote', { keyPath: 'path' });
        remote.createIndex('parent', 'parent');
        remote.createIndex('usedAt', 'usedAt');
        db.createObjectStore('outbox', { keyPath: 'batchId' });
        // Within the upgrade's own transaction, which the open waits for.
        void db.createObjectStore('meta').put({ clientId: crypto.randomUUID(), nextBatchId: 1, since: 0 }, 'state');
      },
      blocking(_current, next) {
        db.close();
        if (next === null) return options.onDeleted?.(); // deleteDatabase: no newer version
        console.warn(messages.otherTab);
        options.onBlocking?.();
      },
    });
    return new Cache(db, options.now ?? Date.now);
  }

  close(): void {
    this.db.close();
  }

  /** The client's id and the version to listen from. */
  async state(): Promise<State> {
    const s = await this.db.get('meta', 'state');
    if (!s) throw new SyncError('failed-precondition', 'the cache has no state');
    return s;
  }

  /** Queues writes as one batch, durably, and returns it. A failed transaction (the quota) is
   * refused with `Failed to persist write`, and nothing is kept. */
  async write(writes: Write[]): Promise<Batch> {
    try {
      const tx = this.db.transaction(['outbox', 'meta'], 'readwrite');
      const meta = tx.objectStore('meta');
      const state = await meta.get('state');
      if (!state) throw new SyncError('failed-precondition', 'the cache has no state');
      const batch: Batch = { batchId: state.nextBatchId, writes };
      await tx.objectStore('outbox').add(batch);
      await meta.put({ ...state, nextBatchId: state.nextBatchId + 1 }, 'state');
      await tx.done;
      return batch;
    } catch (e) {
      if (e instanceof SyncError) throw e;
      throw new SyncError('unavailable', messages.persistWrite);
    }
  }

  /** Applies writes straight to the copy, for a copy that is never synced (an anonymous
   * visitor's history, which stays on the device). One transaction. */
  async writeLocal(writes: Write[]): Promise<void> {
    try {
      const tx = this.db.transaction('remote', 'readwrite');
      for (const w of writes) {
        const before = await tx.store.get(w.path);
        const after = applyWrite(before ? { path: w.path, fields: before.fields } : null, w);
        if (after) await tx.store.put(this.remoteDoc(after, '', 0));
        else await tx.store.delete(w.path);
      }
      await tx.done;
    } catch {
      throw new SyncError('unavailable', messages.persistWrite);
    }
  }

  /** The batches not yet acknowledged, oldest first. */
  async pending(): Promise<Batch[]> {
    return this.db.getAll('outbox');
  }

  /**
   * The group to send next: the batches up to `sending` if a group was started (by this tab or
   * one that died), else the oldest batches that fit in one commit, recorded as started before
   * they are sent. Its id is its last batch's; empty when nothing waits.
   */
  async nextGroup(): Promise<Batch[]> {
    const tx = this.db.transaction(['outbox', 'meta'], 'readwrite');
    const meta = tx.objectStore('meta');
    const state = await meta.get('state');
    if (!state) throw new SyncError('failed-precondition', 'the cache has no state');
    const group: Batch[] = [];
    let writes = 0;
    let bytes = 0;
    let cursor = await tx.objectStore('outbox').openCursor();
    while (cursor) {
      const b = cursor.value;
      if (state.sending !== undefined) {
        if (b.batchId > state.sending) break;
      } else if (state.alone !== undefined && b.batchId <= state.alone) {
        group.push(b);
        break;
      } else {
        const size = JSON.stringify(b.writes).length;
        if (group.length > 0 && (writes + b.writes.length > MAX_GROUP_WRITES || bytes + size > MAX_GROUP_BYTES)) break;
        writes += b.writes.length;
        bytes += size;
      }
      group.push(b);
      cursor = await cursor.continue();
    }
    const last = group.at(-1)?.batchId;
    if (last !== undefined && state.sending !== last) await meta.put({ ...state, sending: last }, 'state');
    await tx.done;
    return group;
  }

  /** The server applied the group ending at batchId, at version and commitTime: its writes move
   * into the remote copy (unless the listen has brought that version already) and it leaves
   * the outbox, in one transaction. Batches already gone are ignored. */
  async acknowledge(batchId: number, version: number, commitTime: string): Promise<void> {
    const tx = this.db.transaction(['outbox', 'remote', 'meta'], 'readwrite');
    const outbox = tx.objectStore('outbox');
    const remote = tx.objectStore('remote');
    const meta = tx.objectStore('meta');
    // A listen past this version brought the group's effect and all that followed, deletions
    // included; the copy keeps no trace of a deleted document, so applying the writes again now
    // (an answer that came late: it was lost, and the batch sent again) could bring one back.
    const heard = ((await meta.get('state'))?.since ?? 0) >= version;
    for (const batch of heard ? [] : await outbox.getAll(IDBKeyRange.upperBound(batchId))) {
      for (const w of batch.writes) {
        const before = await remote.get(w.path);
        if (before && before.version > version) continue; // the listen brought a newer state
        const after = applyWrite(before ? { path: w.path, fields: before.fields } : null, w);
        // A merge keeps the version of the copy it was made over: another client may have
        // changed the fields it left alone since, so whatever the listen brings next of the
        // document must replace it (an answer read before the commit may hide the merge until
        // the next one). Nor is version the document's own when the commit changed nothing: it
        // is then the store's last, which may be above any the document has until it changes.
        const v = w.kind === 'merge' ? (before?.version ?? 0) : version;
        if (after) await remote.put(this.remoteDoc(after, commitTime, v));
        else await remote.delete(w.path);
      }
    }
    await outbox.delete(IDBKeyRange.upperBound(batchId));
    await this.sent(meta);
    await tx.done;
  }

  /** The server refused the group ending at batchId for good: it leaves the outbox, which undoes
   * it on screen. Returns its batches. */
  async reject(batchId: number): Promise<Batch[]> {
    const tx = this.db.transaction(['outbox', 'meta'], 'readwrite');
    const batches = await tx.objectStore('outbox').getAll(IDBKeyRange.upperBound(batchId));
    await tx.objectStore('outbox').delete(IDBKeyRange.upperBound(batchId));
    await this.sent(tx.objectStore('meta'));
    await tx.done;
    return batches;
  }

  /**
   * The server refused the group ending at batchId for good, as a whole, and remembers that
   * answer under its id: its batches are sent again one by one, under a new client id, so that
   * only the faulty one is undone. Nothing of the group was applied, so nothing can apply twice.
   */
  async split(batchId: number): Promise<void> {
    const state = await this.state();
    await this.db.put('meta', { ...state, clientId: crypto.randomUUID(), sending: undefined, alone: batchId }, 'state');
  }

  /** The group in flight was answered: the next one is chosen afresh. */
  private async sent(meta: IDBPObjectStore<Schema, ('outbox' | 'remote' | 'meta')[], 'meta', 'readwrite'>) {
    const state = await meta.get('state');
    if (state?.sending !== undefined) await meta.put({ ...state, sending: undefined }, 'state');
  }

  /**
   * Makes owner the owner of the copy. A copy another user left behind (their session expired
   * instead of signing out) is erased first; returns how many of their batches were never sent.
   */
  async claim(owner: string): Promise<number> {
    const state = await this.state();
    if (state.owner === owner) return 0;
    let dropped = 0;
    if (state.owner !== undefined) {
      dropped = (await this.pending()).length;
      await this.clear();
    }
    await this.db.put('meta', { ...(await this.state()), owner }, 'state');
    return dropped;
  }

  /**
   * Applies a listen answer: each change newer than the copy, and the version to listen from
   * next, with the horizon of an answer that was cut (`more`); one transaction. A reset answer starts
   * again from the live documents: those the copy holds that it does not bring are in limbo
   * (deleted meanwhile, or in a later page of the answer), and are returned, to be revalidated
   * with the server one by one (revalidated).
   */
  async applyRemote(changes: RemoteChange[], version: number, reset = false, horizon?: string): Promise<Limbo[]> {
    const tx = this.db.transaction(['remote', 'meta'], 'readwrite');
    const remote = tx.objectStore('remote');
    let limbo: Limbo[] = [];
    if (reset) {
      const brought = new Set(changes.map((c) => c.path));
      limbo = (await remote.getAll()).filter((d) => !brought.has(d.path)).map((d) => ({ path: d.path, version: d.version }));
    }
    for (const c of changes) {
      const before = await remote.get(c.path);
      if (before && before.version >= c.version) continue;
      if (c.deleted) await remote.delete(c.path);
      else await remote.put(this.remoteDoc({ path: c.path, fields: c.fields ?? {} }, c.updateTime, c.version));
    }
    const meta = tx.objectStore('meta');
    const state = await meta.get('state');
    if (state) await meta.put({ ...state, since: version, horizon }, 'state');
    await tx.done;
    return limbo;
  }

  /** A document in limbo as the server has it now (null: it is gone), applied unless the listen
   * has changed it meanwhile. */
  async revalidated(doc: Limbo, now: RemoteChange | null): Promise<void> {
    const tx = this.db.transaction('remote', 'readwrite');
    const before = await tx.store.get(doc.path);
    if (before && before.version === doc.version) {
      if (!now) await tx.store.delete(doc.path);
      else if (now.version > before.version) await tx.store.put(this.remoteDoc({ path: now.path, fields: now.fields ?? {} }, now.updateTime, now.version));
    }
    await tx.done;
  }

  /** The document at path as the visitor sees it, or null. */
  async get(path: string): Promise<ReadDoc | null> {
    const [remote, batches] = await Promise.all([this.db.get('remote', path), this.pending()]);
    const writes = batches.flatMap((b) => b.writes.filter((w) => w.path === path));
    return overlay(remote ? { path, fields: remote.fields } : null, writes);
  }

  /** The documents of the collection parent as the visitor sees them, in path order. */
  async collection(parent: string): Promise<ReadDoc[]> {
    const [remote, batches] = await Promise.all([this.db.getAllFromIndex('remote', 'parent', parent), this.pending()]);
    // Each document's pending writes, in order, gathered in one pass: with a long outbox (a
    // thousand saves offline) going through every batch for every document is what costs.
    const pending = new Map<string, Write[]>(remote.map((d) => [d.path, []]));
    for (const b of batches) {
      for (const w of b.writes) {
        if (parentOf(w.path) !== parent) continue;
        const list = pending.get(w.path);
        if (list) list.push(w);
        else pending.set(w.path, [w]);
      }
    }
    const byPath = new Map(remote.map((d) => [d.path, d]));
    const out: ReadDoc[] = [];
    for (const [path, writes] of [...pending].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const r = byPath.get(path);
      const doc = overlay(r ? { path, fields: r.fields } : null, writes);
      if (doc) out.push(doc);
    }
    return out;
  }

  /** Removes the least recently changed remote documents that no pending batch touches until
   * the copy holds at most maxBytes; returns how many went. */
  async evict(maxBytes: number): Promise<number> {
    const batches = await this.pending();
    const touched = new Set(batches.flatMap((b) => b.writes.map((w) => w.path)));
    const tx = this.db.transaction('remote', 'readwrite');
    let total = 0;
    for (const d of await tx.store.getAll()) total += d.size;
    let removed = 0;
    let cursor = await tx.store.index('usedAt').openCursor();
    while (cursor && total > maxBytes) {
      if (!touched.has(cursor.value.path)) {
        total -= cursor.value.size;
        await cursor.delete();
        removed++;
      }
      cursor = await cursor.continue();
    }
    await tx.done;
    return removed;
  }

  /** Erases everything: the signed-in user's data leaves the device at sign-out. */
  async clear(): Promise<void> {
    const tx = this.db.transaction(['remote', 'outbox', 'meta'], 'readwrite');
    await Promise.all([tx.objectStore('remote').clear(), tx.objectStore('outbox').clear()]);
    await tx.objectStore('meta').put({ clientId: crypto.randomUUID(), nextBatchId: 1, since: 0 }, 'state');
    await tx.done;
  }

  private remoteDoc(doc: LocalDoc, updateTime: string, version: number): RemoteDoc {
    return {
      path: doc.path,
      parent: parentOf(doc.path),
      fields: doc.fields,
      updateTime,
      version,
      size: JSON.stringify(doc.fields).length,
      usedAt: this.now(),
    };
  }
}

/**
 * Deletes the database called name (a sign-out). Tabs that have it open are told (onDeleted) and
 * close it; one that does not answer (frozen in the background) delays the deletion until it
 * does, so this resolves once the deletion is done or queued.
 */
export function deleteCache(name: string): Promise<void> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onblocked = () => resolve();
    req.onerror = () => {
      console.warn(`the database ${name} could not be deleted:`, req.error);
      resolve();
    };
  });
}

/** The document at path after every pending batch, with whether any touched it. */
function overlay(remote: LocalDoc | null, writes: Write[]): ReadDoc | null {
  let doc = remote;
  for (const w of writes) doc = applyWrite(doc, w);
  return doc && { ...doc, fromCache: true, hasPendingWrites: writes.length > 0 };
}
