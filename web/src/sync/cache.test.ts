import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cache, MAX_GROUP_WRITES, splitWrites, type RemoteChange } from './cache';
import { messages } from './errors';
import { fromFields, toFields } from './values';
import { toServer, type Write } from './writes';

let n = 0;
const opened: Cache[] = [];
async function open(now = () => 1000): Promise<Cache> {
  const c = await Cache.open(`cache-test-${++n}`, { now });
  opened.push(c);
  return c;
}
afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});

const h = (id: string) => `users/u1/history/${id}`;
const set = (path: string, fields: Parameters<typeof toFields>[0]): Write => ({ kind: 'set', path, fields: toFields(fields) });
const remote = (path: string, version: number, fields?: Parameters<typeof toFields>[0]): RemoteChange =>
  fields ? { path, fields: toFields(fields), updateTime: `t${version}`, version } : { path, deleted: true, updateTime: `t${version}`, version };
const plain = (docs: { path: string; fields: Parameters<typeof fromFields>[0]; hasPendingWrites: boolean }[]) =>
  docs.map((d) => ({ path: d.path, ...fromFields(d.fields), pending: d.hasPendingWrites }));

describe('Cache', () => {
  it('shows a write at once, with pending writes, until the server acknowledges it', async () => {
    const c = await open();
    const { clientId, nextBatchId } = await c.state();
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    const b = await c.write([set(h('a'), { tool: 'area' }), set(h('b'), { tool: 'speed' })]);
    expect(b.batchId).toBe(nextBatchId);
    expect(plain(await c.collection('users/u1/history'))).toEqual([
      { path: h('a'), tool: 'area', pending: true },
      { path: h('b'), tool: 'speed', pending: true },
    ]);
    await c.acknowledge(b.batchId, 7, '2026-11-23T00:00:00Z');
    expect(await c.pending()).toEqual([]);
    expect(plain(await c.collection('users/u1/history'))).toEqual([
      { path: h('a'), tool: 'area', pending: false },
      { path: h('b'), tool: 'speed', pending: false },
    ]);
    expect((await c.state()).nextBatchId).toBe(nextBatchId + 1);
  });

  it('undoes a rejected batch, keeping the ones after it', async () => {
    const c = await open();
    await c.applyRemote([remote('users/u1', 3, { units: 'm2', decimals: 2 })], 3);
    const first = await c.write([{ kind: 'merge', path: 'users/u1', fields: toFields({ units: 'ft2' }), mask: ['units'] }]);
    await c.write([{ kind: 'merge', path: 'users/u1', fields: toFields({ decimals: 4 }), mask: ['decimals'] }]);
    expect(fromFields((await c.get('users/u1'))!.fields)).toEqual({ units: 'ft2', decimals: 4 });
    expect(await c.reject(first.batchId)).toEqual([first]);
    const after = await c.get('users/u1');
    expect(fromFields(after!.fields)).toEqual({ units: 'm2', decimals: 4 });
    expect(after!.hasPendingWrites).toBe(true);
  });

  it('applies listen answers newer than its copy, deletions included, and remembers the version', async () => {
    const c = await open();
    await c.applyRemote([remote(h('a'), 2, { n: 1 }), remote(h('b'), 3, { n: 2 })], 3);
    await c.applyRemote([remote(h('a'), 4, { n: 5 }), remote(h('b'), 5), remote(h('a'), 1, { n: 0 })], 5);
    expect(plain(await c.collection('users/u1/history'))).toEqual([{ path: h('a'), n: 5, pending: false }]);
    expect((await c.state()).since).toBe(5);
    // A reset starts again from the live documents: the others are in limbo until the server
    // says whether it still has them.
    expect(await c.applyRemote([remote(h('c'), 9, { n: 9 })], 9, true)).toEqual([{ path: h('a'), version: 4 }]);
    await c.revalidated({ path: h('a'), version: 4 }, null);
    expect(plain(await c.collection('users/u1/history'))).toEqual([{ path: h('c'), n: 9, pending: false }]);
  });

  it('does not let an acknowledgement overwrite a newer state the listen brought', async () => {
    const c = await open();
    const b = await c.write([set(h('a'), { n: 1 })]);
    await c.applyRemote([remote(h('a'), 8, { n: 2 })], 8);
    await c.acknowledge(b.batchId, 6, 't6');
    expect(plain(await c.collection('users/u1/history'))).toEqual([{ path: h('a'), n: 2, pending: false }]);
  });

  it('does not bring back a document the listen deleted after the batch was applied', async () => {
    const c = await open();
    const b = await c.write([set(h('a'), { n: 1 })]);
    // The server applied the batch at 4, another device deleted the entry at 6, and the listen
    // brought both before the answer to the batch (sent again: the first answer was lost).
    await c.applyRemote([remote(h('a'), 6)], 6);
    await c.acknowledge(b.batchId, 4, 't4');
    expect(await c.collection('users/u1/history')).toEqual([]);
    expect(await c.pending()).toEqual([]);
  });

  it('lets the listen correct a merge acknowledged over an older copy', async () => {
    const c = await open();
    await c.applyRemote([remote('users/u1', 3, { name: 'Ada', units: 'm2' })], 3);
    const b = await c.write([{ kind: 'merge', path: 'users/u1', fields: toFields({ units: 'ft2' }), mask: ['units'] }]);
    // The name changed elsewhere at version 5; the server merged the units over it at 6, and the
    // listen brings that after the acknowledgement.
    await c.acknowledge(b.batchId, 6, 't6');
    await c.applyRemote([remote('users/u1', 6, { name: 'Grace', units: 'ft2' })], 6);
    expect(fromFields((await c.get('users/u1'))!.fields)).toEqual({ name: 'Grace', units: 'ft2' });
    // A merge that changed nothing: its commit has the store's last version, 9, not the
    // document's, which stays 7; the listen's state at 7 still counts.
    const same = await c.write([{ kind: 'merge', path: 'users/u1', fields: toFields({ units: 'ft2' }), mask: ['units'] }]);
    await c.acknowledge(same.batchId, 9, 't9');
    await c.applyRemote([remote('users/u1', 7, { name: 'Ada', units: 'ft2' })], 9);
    expect(fromFields((await c.get('users/u1'))!.fields)).toEqual({ name: 'Ada', units: 'ft2' });
    // A merge into a document the copy has not heard of yet: the listen brings the rest.
    const d = await c.write([{ kind: 'merge', path: h('new'), fields: toFields({ seen: true }), mask: ['seen'] }]);
    await c.acknowledge(d.batchId, 10, 't10');
    await c.applyRemote([remote(h('new'), 10, { seen: true, tool: 'area' })], 10);
    expect(fromFields((await c.get(h('new')))!.fields)).toEqual({ seen: true, tool: 'area' });
  });

  it('evicts the least recently changed documents without pending writes', async () => {
    let t = 0;
    const c = await open(() => ++t);
    const big = 'x'.repeat(400_000);
    await c.applyRemote([remote(h('old'), 1, { s: big })], 1);
    await c.applyRemote([remote(h('mid'), 2, { s: big })], 2);
    await c.applyRemote([remote(h('new'), 3, { s: big })], 3);
    await c.write([{ kind: 'merge', path: h('old'), fields: toFields({ seen: true }), mask: ['seen'] }]);
    expect(await c.evict(1_048_576)).toBe(1);
    expect((await c.collection('users/u1/history')).map((d) => d.path)).toEqual([h('new'), h('old')]);
  });

  it('refuses a write it cannot store with "Failed to persist write", keeping nothing', async () => {
    const c = await open();
    const circular: Write = { kind: 'set', path: h('a'), fields: { f: { stringValue: 'x' } } };
    // A value IndexedDB cannot clone fails the transaction, as the quota does.
    (circular as unknown as { bad: () => void }).bad = () => undefined;
    await expect(c.write([circular])).rejects.toThrow(messages.persistWrite);
    expect(await c.pending()).toEqual([]);
  });

  it('keeps a device-only copy: local writes apply at once, with nothing to send', async () => {
    const c = await open();
    await c.writeLocal([set(h('a'), { n: 1 }), set(h('b'), { n: 2 })]);
    await c.writeLocal([{ kind: 'delete', path: h('a') }]);
    expect(plain(await c.collection('users/u1/history'))).toEqual([{ path: h('b'), n: 2, pending: false }]);
    expect(await c.pending()).toEqual([]);
  });

  it('forgets everything at sign-out, with a new client id', async () => {
    const c = await open();
    const before = (await c.state()).clientId;
    await c.write([set(h('a'), { n: 1 })]);
    await c.applyRemote([remote(h('b'), 2, { n: 2 })], 2);
    await c.clear();
    expect(await c.collection('users/u1/history')).toEqual([]);
    expect(await c.pending()).toEqual([]);
    expect((await c.state()).clientId).not.toBe(before);
  });

  it('tells an open tab when a newer build needs the database, and closes', async () => {
    const onBlocking = vi.fn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = `cache-test-${++n}`;
    await Cache.open(name, { onBlocking });
    const newer = indexedDB.open(name, 2);
    await new Promise((resolve) => (newer.onsuccess = resolve));
    newer.result.close();
    expect(onBlocking).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledWith(messages.otherTab);
    warn.mockRestore();
  });

  it('tells an open tab when another deletes the database (a sign-out), and closes without a reload', async () => {
    const onBlocking = vi.fn();
    const onDeleted = vi.fn();
    const name = `cache-test-${++n}`;
    await Cache.open(name, { onBlocking, onDeleted });
    const deletion = indexedDB.deleteDatabase(name);
    await new Promise((resolve) => (deletion.onsuccess = resolve));
    expect(onDeleted).toHaveBeenCalledOnce();
    expect(onBlocking).not.toHaveBeenCalled();
  });

  it('sends the oldest batches as one group of at most 500 writes, and the same group again until it is answered', async () => {
    const c = await open();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.write(Array.from({ length: 200 }, (_, j) => set(h(`${i}-${j}`), { n: j })))).batchId);
    const first = await c.nextGroup();
    expect(first.map((b) => b.batchId)).toEqual(ids.slice(0, 2)); // 400 writes; a third would make 600
    // A batch written meanwhile, a tab that dies and another that takes over: the same group.
    await c.write([set(h('late'), { n: 0 })]);
    expect((await c.nextGroup()).map((b) => b.batchId)).toEqual(ids.slice(0, 2));
    await c.acknowledge(ids[1], 7, 't7');
    expect((await c.pending()).map((b) => b.batchId)).toEqual([ids[2], ids[2] + 1]);
    expect((await c.collection('users/u1/history')).filter((d) => !d.hasPendingWrites)).toHaveLength(400);
    expect((await c.nextGroup()).map((b) => b.batchId)).toEqual([ids[2], ids[2] + 1]);
    expect((await c.reject(ids[2] + 1)).map((b) => b.batchId)).toEqual([ids[2], ids[2] + 1]);
    expect(await c.nextGroup()).toEqual([]);
  });

  it('belongs to one user: another who signs in finds it erased, and is told how many changes were lost', async () => {
    const c = await open();
    expect(await c.claim('u1')).toBe(0);
    await c.write([set(h('a'), { n: 1 })]);
    expect(await c.claim('u1')).toBe(0);
    expect(await c.pending()).toHaveLength(1);
    expect(await c.claim('u2')).toBe(1);
    expect(await c.pending()).toEqual([]);
    expect((await c.state()).owner).toBe('u2');
  });
});

describe('splitWrites', () => {
  // The heaviest history entries the schema lets through (internal/account/schema.go): a title
  // and a detail of 1,000 characters of 3 UTF-8 bytes each, a query of 8,192 bytes that JSON
  // escapes to twice as many.
  const heavy = (i: number): Write => ({
    kind: 'set',
    path: `users/u1/history/${String(i).padStart(20, '0')}`,
    fields: toFields({ tool: 'area', at: new Date(0), title: '€'.repeat(1000), detail: '€'.repeat(1000), query: '?' + '"'.repeat(8191) }),
  });
  const maxCommitBody = 4 << 20; // internal/server/body.go

  it('keeps every commit of the heaviest writes under the server body limit, in order', () => {
    const writes = Array.from({ length: 2 * MAX_GROUP_WRITES }, (_, i) => heavy(i));
    const batches = splitWrites(writes);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.flat()).toEqual(writes);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(MAX_GROUP_WRITES);
      const body = JSON.stringify({ writes: batch.map(toServer), clientId: 'c'.repeat(36), batchId: String(2 ** 53) });
      expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(maxCommitBody);
    }
  });

  it('keeps small writes together up to the commit limit of writes', () => {
    const writes: Write[] = Array.from({ length: MAX_GROUP_WRITES + 1 }, (_, i) => ({ kind: 'delete', path: `users/u1/history/h${i}` }));
    expect(splitWrites(writes).map((b) => b.length)).toEqual([MAX_GROUP_WRITES, 1]);
    expect(splitWrites([])).toEqual([]);
  });
});
