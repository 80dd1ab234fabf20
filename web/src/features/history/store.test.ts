import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openClient } from '../../sync/client';
import { FakeServer } from '../../../test/sync/fakeServer';
import { openLocal, openMemory, type LocalClient } from '../../sync/local';
import type { HistoryEntry } from './logic/entries';
import { historyStore, moveIntoAccount } from './store';

let n = 0;
const open: LocalClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.terminate();
});
async function local() {
  const c = await openLocal(`history-test-${++n}`, (name) => new BroadcastChannel(name));
  open.push(c);
  return c;
}

const entry = (id: string, at: number, title = id): HistoryEntry => ({ id, tool: 'area', at, title, query: `?${title}`, detail: '' });

describe('historyStore', () => {
  it('saves newest first, not twice in a row, removes with undo, and clears', async () => {
    const s = historyStore(await local(), 'device');
    expect(await s.save(entry('a', 1))).toBe(true);
    expect(await s.save(entry('b', 2))).toBe(true);
    expect(await s.save(entry('c', 3, 'b'))).toBe(false); // the same inputs as the newest
    expect((await s.entries()).map((e) => e.id)).toEqual(['b', 'a']);
    const [b] = await s.entries();
    await s.remove('b');
    expect((await s.entries()).map((e) => e.id)).toEqual(['a']);
    await s.restore([b]);
    expect((await s.entries()).map((e) => e.id)).toEqual(['b', 'a']);
    await s.clear();
    expect(await s.entries()).toEqual([]);
  });

  it('tells other tabs of a save', async () => {
    const name = `history-test-${++n}`;
    const [one, two] = [await openLocal(name, (c) => new BroadcastChannel(c)), await openLocal(name, (c) => new BroadcastChannel(c))];
    open.push(one, two);
    const heard = new Promise<void>((resolve) => historyStore(two, 'device').subscribe(resolve));
    await historyStore(one, 'device').save(entry('a', 1));
    await heard;
    expect((await historyStore(two, 'device').entries()).map((e) => e.id)).toEqual(['a']);
  });

  it('moves the device-only history into the account at sign-in, in batches of 500', async () => {
    const device = historyStore(await local(), 'device');
    await device.restore(Array.from({ length: 1203 }, (_, i) => entry(`e${i}`, i)));
    const server = new FakeServer();
    const client = await openClient({ name: `history-account-${++n}`, remote: server });
    const account = historyStore(client, 'account', 'u1');
    expect(await moveIntoAccount(device, account)).toBe(1203);
    expect(await device.entries()).toEqual([]);
    expect(await account.entries()).toHaveLength(1203);
    for (let i = 0; i < 500 && server.docs.size < 1203; i++) await new Promise((r) => setTimeout(r, 5));
    expect(server.docs.size).toBe(1203);
    expect([...server.docs.keys()].every((p) => p.startsWith('users/u1/history/'))).toBe(true);
    await client.terminate();
  });

  it('works from memory where IndexedDB is unavailable', async () => {
    const s = historyStore(openMemory(), 'memory');
    const heard = new Promise<void>((resolve) => s.subscribe(resolve));
    await s.save(entry('a', 1));
    await heard;
    expect((await s.entries()).map((e) => e.id)).toEqual(['a']);
    await s.close();
    await expect(s.entries()).rejects.toThrow('The client has already been terminated.');
  });
});
