import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openClient, type SyncClient } from './client';
import { messages } from './errors';
import { FakeServer } from '../../test/sync/fakeServer';
import { toFields } from './values';

/** navigator.locks' exclusive request, in memory: one holder per name, the next in line
 * granted when the holder's callback ends; an aborted request leaves the line. */
class FakeLocks {
  private queues = new Map<string, (() => void)[]>();
  private held = new Set<string>();

  request(name: string, options: { signal?: AbortSignal }, fn: () => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held.add(name);
        void fn()
          .then(resolve, reject)
          .finally(() => {
            this.held.delete(name);
            this.queues.get(name)?.shift()?.();
          });
      };
      if (!this.held.has(name)) return grant();
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, queue);
      queue.push(grant);
      options.signal?.addEventListener('abort', () => {
        queue.splice(queue.indexOf(grant), 1);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  }
}

let n = 0;
const clients: SyncClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.terminate();
});

async function tabs(count: number, server = new FakeServer()) {
  const name = `client-test-${++n}`;
  const locks = new FakeLocks();
  /** Another tab of the same device. */
  const open = async () => {
    const c = await openClient({ name, remote: server, locks: locks as unknown as LockManager, channel: (ch) => new BroadcastChannel(ch) });
    clients.push(c);
    return c;
  };
  const out: SyncClient[] = [];
  for (let i = 0; i < count; i++) out.push(await open());
  return { server, tabs: out, open };
}

const until = async (check: () => Promise<boolean> | boolean) => {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('timed out');
};

const h = (id: string) => `users/u1/history/${id}`;

describe('openClient', () => {
  it('lets every tab write; the one syncing tab sends it; the others hear of it', async () => {
    const { server, tabs: [a, b] } = await tabs(2);
    let heard = 0;
    a.subscribe(() => heard++);
    await b.write([{ kind: 'set', path: h('from-b'), fields: toFields({ tab: 'b' }) }]);
    await until(() => server.docs.has(h('from-b')));
    await until(() => heard > 0);
    expect((await a.collection('users/u1/history')).map((d) => d.path)).toEqual([h('from-b')]);
    await until(() => b.status().pending === 0 && b.status().online === 'online');
  });

  it('tells a tab that opens later whether the server answers', async () => {
    const { tabs: [a], open } = await tabs(1);
    await until(() => a.status().online === 'online');
    const late = await open();
    await until(() => late.status().online === 'online');
  });

  it('hands the sync over when the syncing tab goes', async () => {
    const { server, tabs: [a, b] } = await tabs(2);
    await a.terminate();
    await b.write([{ kind: 'set', path: h('later'), fields: {} }]);
    await until(() => server.docs.has(h('later')));
  });

  it('refuses a server read while offline, and any call once terminated', async () => {
    const server = new FakeServer();
    server.listenDown = true;
    const { tabs: [a] } = await tabs(1, server);
    await until(() => a.status().online === 'offline');
    await expect(a.get(h('x'), { source: 'server' })).rejects.toThrow(messages.offlineRead);
    server.listenDown = false;
    await server.commit({ writes: [{ update: { name: h('x'), fields: toFields({ n: 1 }) } }], clientId: 'other', batchId: 1 });
    await until(() => a.status().online === 'online');
    expect(await a.get(h('x'), { source: 'server' })).toMatchObject({ path: h('x'), fromCache: false, hasPendingWrites: false });
    await until(async () => (await a.get(h('x')))?.fromCache === true);
    await a.terminate();
    await expect(a.collection('users/u1/history')).rejects.toThrow(messages.terminated);
    await expect(a.write([])).rejects.toThrow('The client has already been terminated.');
  });

  it('keeps writes made offline across a reload, and sends them when the server is back', async () => {
    const server = new FakeServer();
    server.faults = ['down'];
    const name = `client-test-${++n}`;
    const first = await openClient({ name, remote: server });
    await first.write([{ kind: 'set', path: h('offline'), fields: {} }]);
    await first.terminate(); // the tab is reloaded before the server answered
    const second = await openClient({ name, remote: server });
    clients.push(second);
    expect((await second.collection('users/u1/history'))[0]).toMatchObject({ path: h('offline'), hasPendingWrites: true });
    await until(() => server.docs.has(h('offline')));
    expect(server.applied).toBe(1);
  });

  it('erases the copy at sign-out', async () => {
    const name = `client-test-${++n}`;
    const server = new FakeServer();
    const c = await openClient({ name, remote: server });
    await c.write([{ kind: 'set', path: h('a'), fields: {} }]);
    await c.clearAndTerminate();
    const again = await openClient({ name, remote: new FakeServer() });
    clients.push(again);
    expect(await again.collection('users/u1/history')).toEqual([]);
  });
});
