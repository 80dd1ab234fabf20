// The local copy of the signed-in user's documents, in IndexedDB (through idb): the server's
// documents as last heard (`remote`), the writes not yet acknowledged (`outbox`, one batch per
// write call, each stored in the same transaction as its id), and the sync state (`meta`).
// What the visitor sees is the remote copy with the outbox applied on top, so a batch the
// server rejects is undone by dropping it, and an acknowledged one changes nothing on screen.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
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

/** A document as read: with whether it came from the cache and whether writes are pending. */
export interface ReadDoc extends LocalDoc {
  fromCache: true;
  hasPendingWrites: boolean;
}

interface State {
  clientId: string;
  nextBatchId: number;
  /** The version the listen resumes from. */
  since: number;
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
      blocking() {
        console.warn(messages.otherTab);
        db.close();
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

  /** The server applied batchId at version, commitTime: its writes move into the remote copy
   * and it leaves the outbox, in one transaction. A batch already gone is ignored. */
  async acknowledge(batchId: number, version: number, commitTime: string): Promise<void> {
    const tx = this.db.transaction(['outbox', 'remote'], 'readwrite');
    const batch = await tx.objectStore('outbox').get(batchId);
    if (batch) {
      const remote = tx.objectStore('remote');
      for (const w of batch.writes) {
        const before = await remote.get(w.path);
        if (before && before.version > version) continue; // the listen brought a newer state
        const after = applyWrite(before ? { path: w.path, fields: before.fields } : null, w);
        if (after) await remote.put(this.remoteDoc(after, commitTime, version));
        else await remote.delete(w.path);
      }
      await tx.objectStore('outbox').delete(batchId);
    }
    await tx.done;
  }

  /** The server refused batchId for good: it leaves the outbox, which undoes it on screen. */
  async reject(batchId: number): Promise<Batch | undefined> {
    const tx = this.db.transaction('outbox', 'readwrite');
    const batch = await tx.store.get(batchId);
    await tx.store.delete(batchId);
    await tx.done;
    return batch;
  }

  /** Applies a listen answer: each change newer than the copy, and the version to listen from
   * next; a reset first drops every remote document. One transaction. */
  async applyRemote(changes: RemoteChange[], version: number, reset = false): Promise<void> {
    const tx = this.db.transaction(['remote', 'meta'], 'readwrite');
    const remote = tx.objectStore('remote');
    if (reset) await remote.clear();
    for (const c of changes) {
      const before = await remote.get(c.path);
      if (before && before.version >= c.version) continue;
      if (c.deleted) await remote.delete(c.path);
      else await remote.put(this.remoteDoc({ path: c.path, fields: c.fields ?? {} }, c.updateTime, c.version));
    }
    const meta = tx.objectStore('meta');
    const state = await meta.get('state');
    if (state) await meta.put({ ...state, since: version }, 'state');
    await tx.done;
  }

  /** The document at path as the visitor sees it, or null. */
  async get(path: string): Promise<ReadDoc | null> {
    const [remote, batches] = await Promise.all([this.db.get('remote', path), this.pending()]);
    return overlay(path, remote ? { path, fields: remote.fields } : null, batches);
  }

  /** The documents of the collection parent as the visitor sees them, in path order. */
  async collection(parent: string): Promise<ReadDoc[]> {
    const [remote, batches] = await Promise.all([this.db.getAllFromIndex('remote', 'parent', parent), this.pending()]);
    const paths = new Set(remote.map((d) => d.path));
    for (const b of batches) for (const w of b.writes) if (parentOf(w.path) === parent) paths.add(w.path);
    const byPath = new Map(remote.map((d) => [d.path, d]));
    const out: ReadDoc[] = [];
    for (const path of [...paths].sort()) {
      const r = byPath.get(path);
      const doc = overlay(path, r ? { path, fields: r.fields } : null, batches);
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

/** The document at path after every pending batch, with whether any touched it. */
function overlay(path: string, remote: LocalDoc | null, batches: Batch[]): ReadDoc | null {
  let doc = remote;
  let pending = false;
  for (const b of batches) {
    for (const w of b.writes) {
      if (w.path !== path) continue;
      doc = applyWrite(doc, w);
      pending = true;
    }
  }
  return doc && { ...doc, fromCache: true, hasPendingWrites: pending };
}
