import 'fake-indexeddb/auto';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cache } from './cache';
import { Engine, MAX_REVALIDATIONS, backoff, type ListenAnswer, type Remote } from './engine';
import { FakeServer } from '../../test/sync/fakeServer';
import { SyncError } from './errors';
import { validateSettings } from './settings';
import { fromFields, toFields } from './values';

let n = 0;
const running: { abort: AbortController; cache: Cache; done: Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.abort.abort();
    await r.done;
    r.cache.close();
  }
});

async function start(server: Remote, options: { onRejected?: (e: SyncError) => void } = {}) {
  const cache = await Cache.open(`engine-test-${++n}`);
  const changed = vi.fn();
  const online: string[] = [];
  const engine = new Engine({
    cache,
    remote: server,
    settings: validateSettings(),
    onChange: changed,
    onRejected: (_b, e) => options.onRejected?.(e),
    onOnline: (s) => online.push(s),
    onUnauthenticated: () => undefined,
    sleep: (_ms, signal) => new Promise((resolve) => (signal.aborted ? resolve() : setTimeout(resolve, 1))),
    random: () => 0.5,
  });
  const abort = new AbortController();
  const done = engine.run(abort.signal);
  running.push({ abort, cache, done });
  return { cache, engine, changed, online, signal: abort.signal };
}

const until = async (check: () => Promise<boolean> | boolean) => {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('timed out');
};

const h = (id: string) => `users/u1/history/${id}`;

describe('Engine', () => {
  it('sends the outbox in order and empties it on acknowledgement', async () => {
    const server = new FakeServer();
    const { cache, engine, online } = await start(server);
    for (const id of ['a', 'b', 'c']) await cache.write([{ kind: 'set', path: h(id), fields: toFields({ id }) }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    expect([...server.docs.keys()]).toEqual([h('a'), h('b'), h('c')]);
    expect(online).toContain('online');
  });

  it('resends a batch whose answer was lost: applied once, acknowledged once', async () => {
    const server = new FakeServer();
    server.faults = ['lost', 'down', 'down'];
    const { cache, engine, online } = await start(server);
    await cache.write([{ kind: 'set', path: h('a'), fields: toFields({ n: 1 }) }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    expect(server.applied).toBe(1);
    expect(online).toContain('offline');
  });

  it('undoes a batch the server refuses for good, reports it, and goes on with the next', async () => {
    const server = new FakeServer();
    server.refuse = (path) => (path === h('bad') ? new SyncError('permission-denied', 'no access') : undefined);
    const rejected: SyncError[] = [];
    const { cache, engine } = await start(server, { onRejected: (e) => rejected.push(e) });
    await cache.write([{ kind: 'set', path: h('bad'), fields: toFields({}) }]);
    await cache.write([{ kind: 'set', path: h('good'), fields: toFields({}) }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    // Sent together, refused together; then each alone, under a new client id: only the faulty one is undone.
    expect(rejected.map((e) => e.code)).toEqual(['permission-denied']);
    expect(server.applied).toBe(1);
    await until(async () => (await cache.collection('users/u1/history')).length === 1);
    expect((await cache.collection('users/u1/history')).map((d) => d.path)).toEqual([h('good')]);
  });

  it('sends what was queued offline in groups of up to 500 writes, each applied once', async () => {
    const server = new FakeServer();
    server.faults = ['down', 'lost'];
    const { cache, engine } = await start(server);
    for (let i = 0; i < 1200; i++) await cache.write([{ kind: 'set', path: h(`e${i}`), fields: toFields({ i }) }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    expect(server.applied).toBe(3);
    expect(server.docs.size).toBe(1200);
    expect((await cache.collection('users/u1/history')).every((d) => !d.hasPendingWrites)).toBe(true);
  });

  it('revalidates the documents a reset did not bring, at most 100 at once, dropping those gone', async () => {
    const server = new FakeServer();
    const { cache } = await start(server);
    const writes = Array.from({ length: 250 }, (_, i) => ({ update: { name: h(`d${i}`), fields: toFields({ i }) } }));
    await server.commit({ writes, clientId: 'device-b', batchId: 1 });
    await until(async () => (await cache.collection('users/u1/history')).length === 250);
    // Deleted while this device was away so long that the server pruned the deletions' traces.
    for (let i = 0; i < 240; i++) server.docs.delete(h(`d${i}`));
    server.resetNext = true;
    await server.commit({ writes: [{ update: { name: h('new'), fields: {} } }], clientId: 'device-b', batchId: 2 });
    await until(async () => (await cache.collection('users/u1/history')).length === 11);
    expect(server.gets).toBe(240);
    expect(server.getsAtOnce).toBeLessThanOrEqual(MAX_REVALIDATIONS);
    expect(MAX_REVALIDATIONS).toBe(100);
  });

  it('continues an answer cut at its bounds (`more`), and listens as usual once one is whole', async () => {
    // A reset (or the documents from 0) too large for one answer, cut below the pruned
    // deletions' horizon: listening again from its version would bring its first part again.
    const doc = (id: string, version: number) => ({ name: h(id), fields: toFields({ id }), updateTime: `t${version}`, version: String(version) });
    const answers: ListenAnswer[] = [
      { reset: false, more: true, horizon: '7', version: '2', changes: [doc('a', 1), doc('b', 2)] },
      { reset: false, more: true, horizon: '7', version: '3', changes: [doc('c', 3)] },
      { reset: false, version: '3', changes: [] }, // whole: nothing more came before the timeout
    ];
    const calls: [number, string | undefined][] = [];
    const remote: Remote = {
      commit: () => Promise.reject(new SyncError('unavailable', 'not in this test')),
      get: () => Promise.resolve(null),
      listen: (since, _timeout, signal, _onOpen, continued) => {
        calls.push([since, continued]);
        const next = answers.shift();
        if (next) return Promise.resolve(next);
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }));
      },
    };
    const { cache } = await start(remote);
    await until(() => calls.length === 4);
    expect(calls).toEqual([
      [0, undefined],
      [2, '7'],
      [3, '7'],
      [3, undefined],
    ]);
    expect((await cache.collection('users/u1/history')).map((d) => d.path)).toEqual([h('a'), h('b'), h('c')]);
    expect((await cache.state()).horizon).toBeUndefined();
  });

  it('follows a paged listen from each answer’s version, and keeps through a paged reset what later pages bring', async () => {
    const server = new FakeServer();
    server.pageVersions = 2; // as the server stops past 1000 changes or 4 MiB
    for (let b = 1; b <= 5; b++) {
      const writes = Array.from({ length: 3 }, (_, i) => ({ update: { name: h(`b${b}-${i}`), fields: toFields({ b }) } }));
      await server.commit({ writes, clientId: 'device-b', batchId: b });
    }
    const { cache } = await start(server);
    await until(async () => (await cache.state()).since === server.version);
    expect((await cache.collection('users/u1/history')).length).toBe(15);
    expect(server.listens).toBeGreaterThanOrEqual(3);
    // A reset, paged too: the documents its first page does not bring are asked about, not
    // dropped, and the next pages bring them again.
    server.resetNext = true;
    await server.commit({ writes: [{ update: { name: h('new'), fields: {} } }], clientId: 'device-b', batchId: 6 });
    await until(async () => (await cache.state()).since === server.version && (await cache.collection('users/u1/history')).length === 16);
    expect(server.gets).toBeGreaterThan(0);
  });

  it('brings other devices’ changes in through the listen, deletions included', async () => {
    const server = new FakeServer();
    const { cache } = await start(server);
    await server.commit({ writes: [{ update: { name: h('x'), fields: toFields({ from: 'B' }) } }], clientId: 'device-b', batchId: 1 });
    await until(async () => (await cache.collection('users/u1/history')).length === 1);
    expect(fromFields((await cache.get(h('x')))!.fields)).toEqual({ from: 'B' });
    await server.commit({ writes: [{ delete: h('x') }], clientId: 'device-b', batchId: 2 });
    await until(async () => (await cache.collection('users/u1/history')).length === 0);
    expect((await cache.state()).since).toBe(server.version);
  });

  it('retries the listen when the server is unreachable, and says offline', async () => {
    const server = new FakeServer();
    server.listenDown = true;
    const { cache, online } = await start(server);
    await until(() => online.includes('offline'));
    server.listenDown = false;
    await server.commit({ writes: [{ update: { name: h('y'), fields: {} } }], clientId: 'device-b', batchId: 1 });
    await until(async () => (await cache.collection('users/u1/history')).length === 1);
    expect(online.at(-1)).toBe('online');
  });

  it('takes the first listen answer, which leaves deletions out, as the whole copy', async () => {
    const server = new FakeServer();
    server.listenDown = true;
    const { cache, engine } = await start(server);
    await cache.write([{ kind: 'set', path: h('gone'), fields: {} }]);
    await cache.write([{ kind: 'set', path: h('kept'), fields: {} }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    // Deleted elsewhere before the copy's first listen, which cannot tell it.
    await server.commit({ writes: [{ delete: h('gone') }], clientId: 'device-b', batchId: 1 });
    server.listenDown = false;
    // The document the answer did not bring is asked about (limbo), and found gone.
    await until(async () => (await cache.collection('users/u1/history')).length === 1);
    expect((await cache.collection('users/u1/history')).map((d) => d.path)).toEqual([h('kept')]);
    expect(server.gets).toBe(1);
  });

  it('leaves no listener on its signal behind after a retry or a wait for writes', async () => {
    const server = new FakeServer();
    server.listenDown = true;
    server.faults = Array<'down'>(20).fill('down');
    const { cache, engine, signal } = await start(server);
    for (let i = 0; i < 20; i++) {
      await cache.write([{ kind: 'set', path: h(`e${i}`), fields: {} }]);
      engine.kick();
      await until(async () => (await cache.pending()).length === 0);
    }
    // One each for the send loop's wait and the listen's backoff, not one per wait since.
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(2);
  });
});

describe('backoff', () => {
  it('doubles from 1 s to 30 s, with jitter, and honours Retry-After', () => {
    expect([0, 1, 2, 5, 10].map((i) => backoff(i, () => 1))).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    expect(backoff(0, () => 0)).toBe(500);
    expect(backoff(0, () => 0, 5000)).toBe(5000);
  });
});
