import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cache } from './cache';
import { Engine, backoff, type CommitAnswer, type ListenAnswer, type Remote } from './engine';
import { SyncError } from './errors';
import { validateSettings } from './settings';
import { fromFields, toFields, type Fields } from './values';

/** The document API in memory, as internal/docstore answers: versions, exactly-once batches,
 * long polls; and faults to inject. */
class FakeServer implements Remote {
  docs = new Map<string, { fields: Fields; version: number; updateTime: string }>();
  tombstones = new Map<string, number>();
  version = 0;
  answered = new Map<string, CommitAnswer>();
  applied = 0;
  waiting: (() => void)[] = [];
  /** Faults for the next commits: 'down' (no answer, nothing applied), 'lost' (applied, answer
   * lost), or a SyncError to answer. */
  faults: ('down' | 'lost' | SyncError)[] = [];
  listenDown = false;

  commit(body: { writes: object[]; clientId: string; batchId: number }): Promise<CommitAnswer> {
    const fault = this.faults.shift();
    if (fault === 'down') return Promise.reject(new SyncError('unavailable', 'no answer'));
    if (fault instanceof SyncError) return Promise.reject(fault);
    const key = `${body.clientId}/${body.batchId}`;
    let answer = this.answered.get(key);
    if (!answer) {
      this.version++;
      const updateTime = `t${this.version}`;
      for (const w of body.writes as { update?: { name: string; fields: Fields }; delete?: string; updateMask?: { fieldPaths: string[] } }[]) {
        if (w.delete) {
          this.docs.delete(w.delete);
          this.tombstones.set(w.delete, this.version);
        } else if (w.update) {
          const before = this.docs.get(w.update.name)?.fields ?? {};
          const fields = w.updateMask ? { ...before, ...Object.fromEntries(w.updateMask.fieldPaths.map((p) => [p, w.update!.fields[p]])) } : w.update.fields;
          this.docs.set(w.update.name, { fields, version: this.version, updateTime });
        }
      }
      answer = { version: String(this.version), commitTime: updateTime };
      this.answered.set(key, answer);
      this.applied++;
      for (const wake of this.waiting.splice(0)) wake();
    }
    if (fault === 'lost') return Promise.reject(new SyncError('unavailable', 'answer lost'));
    return Promise.resolve(answer);
  }

  async listen(since: number, _timeout: number, signal: AbortSignal): Promise<ListenAnswer> {
    if (this.listenDown) throw new SyncError('unavailable', 'no answer');
    for (;;) {
      const changes: ListenAnswer['changes'] = [];
      for (const [name, d] of this.docs) if (d.version > since) changes.push({ name, fields: d.fields, updateTime: d.updateTime, version: String(d.version) });
      for (const [name, v] of this.tombstones) if (v > since) changes.push({ name, deleted: true, updateTime: `t${v}`, version: String(v) });
      if (changes.length > 0) return { reset: false, version: String(this.version), changes };
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    }
  }
}

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
  return { cache, engine, changed, online };
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
    expect(online[0]).toBe('offline');
  });

  it('undoes a batch the server refuses for good, reports it, and goes on with the next', async () => {
    const server = new FakeServer();
    server.faults = [new SyncError('permission-denied', 'no access')];
    const rejected: SyncError[] = [];
    const { cache, engine } = await start(server, { onRejected: (e) => rejected.push(e) });
    await cache.write([{ kind: 'set', path: h('bad'), fields: toFields({}) }]);
    await cache.write([{ kind: 'set', path: h('good'), fields: toFields({}) }]);
    engine.kick();
    await until(async () => (await cache.pending()).length === 0);
    expect(rejected.map((e) => e.code)).toEqual(['permission-denied']);
    await until(async () => (await cache.collection('users/u1/history')).length === 1);
    expect((await cache.collection('users/u1/history')).map((d) => d.path)).toEqual([h('good')]);
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
});

describe('backoff', () => {
  it('doubles from 1 s to 30 s, with jitter, and honours Retry-After', () => {
    expect([0, 1, 2, 5, 10].map((i) => backoff(i, () => 1))).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    expect(backoff(0, () => 0)).toBe(500);
    expect(backoff(0, () => 0, 5000)).toBe(5000);
  });
});
