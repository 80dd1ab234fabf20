// The document API as a test drives it from Node (another device, or a script seeding an
// account), and what a page's synced copy holds (IndexedDB `handy`, read without the page's
// code): for the sync tests at scale (sync-scale.spec.ts).
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { password } from './accounts';

/** A history entry in the API's encoding: the fields the front end writes (entryFields). */
export interface SeedEntry {
  id: string;
  at: number;
  title: string;
  /** The area calculator's lengths, as its shared link has them. */
  l: number;
  w: number;
}

export const entryFields = (e: SeedEntry) => ({
  tool: { stringValue: 'area' },
  at: { timestampValue: new Date(e.at).toISOString() },
  title: { stringValue: e.title },
  query: { stringValue: `?shape=rectangle&l=${e.l}&w=${e.w}` },
  detail: { stringValue: '' },
});

export interface ListenAnswer {
  reset: boolean;
  version: string;
  changes: { name: string; deleted?: boolean }[];
}

/** A signed-in session of the API, as a device other than the browser's. */
export interface Api {
  uid: string;
  /** One commit; throws on anything but 200, with the answer's error. */
  commit(writes: object[]): Promise<{ version: string }>;
  /** Sets each entry, in commits of 500 writes (the most one takes). */
  seed(entries: SeedEntry[]): Promise<void>;
  /** Deletes the entries of these ids, in commits of 500. */
  remove(ids: string[]): Promise<void>;
  /** The ids of every history entry the server holds, in id order; read in pages of 300
   * through a cursor, so that it holds however the server bounds one answer. */
  historyIds(): Promise<string[]>;
  listen(since: string, timeoutSeconds?: number): Promise<ListenAnswer>;
  close(): Promise<void>;
}

const chunks = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

async function json<T>(what: string, res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = (await res.json().catch(() => null)) as (T & { error?: unknown }) | null;
  if (!res.ok() || body === null || body.error) throw new Error(`${what}: HTTP ${res.status()} ${JSON.stringify(body)}`);
  return body;
}

/** Signs up (or, with signIn, in) at baseURL through the API, and returns the session. */
export async function apiSession(baseURL: string, email: string, { signIn = false } = {}): Promise<Api> {
  const ctx = await request.newContext({ baseURL });
  await ctx.get('/api/v1/auth/me'); // any API answer sets the XSRF cookie
  const xsrf = (await ctx.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const signed = await json<{ token: string; user: { id: string } }>(
    signIn ? 'sign-in' : 'sign-up',
    await ctx.post(signIn ? '/api/v1/auth/signin' : '/api/v1/auth/signup', { headers: { 'X-XSRF-TOKEN': xsrf }, data: { email, password } }),
  );
  const headers = { Authorization: `Bearer ${signed.token}`, 'X-XSRF-TOKEN': xsrf };
  const uid = signed.user.id;
  const path = (id: string) => `users/${uid}/history/${id}`;
  const commit = async (writes: object[]) => json<{ version: string }>('commit', await ctx.post('/api/v1/db/commit', { headers, data: { writes }, timeout: 60_000 }));
  return {
    uid,
    commit,
    async seed(entries) {
      for (const part of chunks(entries, 500)) await commit(part.map((e) => ({ update: { name: path(e.id), fields: entryFields(e) } })));
    },
    async remove(ids) {
      for (const part of chunks(ids, 500)) await commit(part.map((id) => ({ delete: path(id) })));
    },
    async historyIds() {
      const ids: string[] = [];
      for (;;) {
        const structuredQuery = {
          from: [{ collectionId: 'history' }],
          orderBy: [{ field: { fieldPath: '__name__' } }],
          limit: 300,
          ...(ids.length > 0 ? { startAt: { values: [{ referenceValue: path(ids.at(-1)!) }] } } : {}),
        };
        const page = await json<{ documents?: { name: string }[] }>('query', await ctx.post('/api/v1/db/query', { headers, data: { parent: `users/${uid}`, structuredQuery } }));
        const docs = page.documents ?? [];
        ids.push(...docs.map((d) => d.name.slice(d.name.lastIndexOf('/') + 1)));
        if (docs.length < 300) return ids;
      }
    },
    listen: async (since, timeoutSeconds = 5) =>
      json<ListenAnswer>('listen', await ctx.get(`/api/v1/db/listen?since=${since}&timeout=${timeoutSeconds}`, { headers, timeout: 60_000 })),
    close: () => ctx.dispose(),
  };
}

/** Opens the page's synced copy (IndexedDB `handy`) from inside the page; null while it has
 * none (opening one that does not exist would create an empty one the page could not use). */
const openCopy = async () => {
  if (!(await indexedDB.databases()).some((d) => d.name === 'handy')) return null;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open('handy');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB failed'));
  });
  if (db.objectStoreNames.contains('meta')) return db;
  db.close();
  return null;
};

/** What the page's synced copy holds: whose it is, the ids of the history entries it has as
 * the server's (in id order), the batches waiting in its outbox, and the version its listen
 * resumes from. */
export interface CopyState {
  owner: string;
  ids: string[];
  pending: number;
  since: number;
}

/** Reads the page's synced copy; null while it has none. */
export function copyState(page: Page): Promise<CopyState | null> {
  return page.evaluate(async (open) => {
    const db = await (eval(open) as typeof openCopy)();
    if (!db) return null;
    try {
      const tx = db.transaction(['remote', 'outbox', 'meta'], 'readonly');
      const read = <T>(r: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error ?? new Error('IndexedDB failed'));
        });
      const state = await read(tx.objectStore('meta').get('state') as IDBRequest<{ owner?: string; since: number }>);
      if (!state.owner) return null;
      const [paths, pending] = await Promise.all([
        read(tx.objectStore('remote').index('parent').getAllKeys(`users/${state.owner}/history`)),
        read(tx.objectStore('outbox').count()),
      ]);
      const ids = (paths as string[]).map((p) => p.slice(p.lastIndexOf('/') + 1)).sort();
      return { owner: state.owner, ids, pending, since: state.since };
    } finally {
      db.close();
    }
  }, `(${openCopy.toString()})`);
}

/**
 * Queues each entry as a batch of its own in the page's outbox, as the history's save does
 * (one `set` per save, numbered in order), all in one transaction; a `bad` entry gets a
 * `query` the server's schema refuses for good. The page's sync sends them when it next looks
 * at the outbox: after a reload at the latest, as after a session offline.
 */
export function queueSaves(page: Page, owner: string, saves: (SeedEntry & { bad?: boolean })[]): Promise<void> {
  const batches = saves.map((e) => ({
    path: `users/${owner}/history/${e.id}`,
    fields: { ...entryFields(e), ...(e.bad ? { query: { stringValue: 'no question mark' } } : {}) },
  }));
  return page.evaluate(
    async ({ open, batches }) => {
      const db = (await (eval(open) as typeof openCopy)())!;
      try {
        const tx = db.transaction(['outbox', 'meta'], 'readwrite');
        const meta = tx.objectStore('meta');
        const state = await new Promise<{ nextBatchId: number }>((resolve, reject) => {
          const r = meta.get('state');
          r.onsuccess = () => resolve(r.result as { nextBatchId: number });
          r.onerror = () => reject(r.error ?? new Error('IndexedDB failed'));
        });
        batches.forEach((b, i) => tx.objectStore('outbox').add({ batchId: state.nextBatchId + i, writes: [{ kind: 'set', ...b }] }));
        meta.put({ ...state, nextBatchId: state.nextBatchId + batches.length }, 'state');
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('the transaction was aborted'));
        });
      } finally {
        db.close();
      }
    },
    { open: `(${openCopy.toString()})`, batches },
  );
}
