// One device of the fault test: its own database (one IndexedDB name), locks, channels and
// network, and three tab slots, each empty or holding a tab with openClient, which the test
// opens, closes (terminate) and kills (gone at once, mid-sync, as when a browser tab crashes).
import { openClient, type SyncClient } from '../../../src/sync/client';
import { createRemote } from '../../../src/sync/remote';
import type { Write } from '../../../src/sync/writes';
import { DeviceLocks } from './locks';
import { Network, never, type TabLine } from './network';
import { xsrf, type Account } from './server';

export const TABS = 3;

/** The engine's backoff runs this many times faster than in a browser (1 s becomes 50 ms), so
 * that a seed takes seconds: waits still grow with each failure, up to 1.5 s. */
const SPEEDUP = 20;

/** A BroadcastChannel that a killed tab can no longer post on (a closed one throws). */
class TabChannel extends BroadcastChannel {
  private closed = false;
  override postMessage(message: unknown): void {
    if (!this.closed) super.postMessage(message);
  }
  override close(): void {
    this.closed = true;
    super.close();
  }
}

class Tab implements TabLine {
  dead = false;
  private readonly killed = new AbortController();
  readonly cut = this.killed.signal;
  readonly channels: TabChannel[] = [];
  client!: SyncClient;

  constructor(readonly id: string) {}

  kill(): void {
    this.dead = true;
    this.killed.abort();
    for (const c of this.channels) c.close();
  }

  /** The engine's backoff, faster; a killed tab's never ends. */
  sleep = (ms: number, signal: AbortSignal) =>
    this.dead
      ? never<void>()
      : new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            if (!this.dead) resolve();
          };
          const timer = setTimeout(done, ms / SPEEDUP);
          signal.addEventListener('abort', done, { once: true });
        });
}

export class Device {
  readonly locks = new DeviceLocks();
  /** Where the 'online' event goes when the network comes back. */
  readonly events = new EventTarget();
  readonly slots: (Tab | undefined)[] = Array.from({ length: TABS }, () => undefined);
  /** Every write call that resolved, in order: the cache numbers its batches 1, 2, … as they
   * are written, and the test writes one at a time, so batch k is batches[k - 1]. */
  readonly batches: Write[][] = [];
  readonly rejected: string[] = [];
  readonly counts = { killed: 0, offline: 0 };
  private opened = 0;

  constructor(
    readonly id: string,
    private readonly database: string,
    readonly net: Network,
    private readonly server: { base: string },
    private readonly account: Account,
  ) {}

  async open(slot: number): Promise<void> {
    if (this.slots[slot]) return;
    const tab = new Tab(`${this.id}${slot}.${++this.opened}`);
    tab.client = await openClient({
      name: this.database,
      owner: this.account.uid,
      remote: createRemote({
        fetch: this.net.fetchFor(tab),
        token: () => this.account.token,
        xsrf: () => xsrf, // the cookie's value, which the network sends as the browser would
        base: `${this.server.base}/api/v1/db`,
      }),
      settings: { longPollTimeoutSeconds: 5 },
      locks: this.locks.forTab(tab.id),
      // The database's name holds the device's, so each device has channels of its own.
      channel: (name) => {
        const c = new TabChannel(name);
        tab.channels.push(c);
        return c;
      },
      events: this.events,
      sleep: tab.sleep,
      onRejected: (batches, e) => this.rejected.push(`${e.code}: ${e.message} (${JSON.stringify(batches)})`),
      onUnauthenticated: () => this.rejected.push('unauthenticated'),
    });
    this.slots[slot] = tab;
  }

  /** Closes the tab in slot, as a visitor closes it. */
  async close(slot: number): Promise<void> {
    const tab = this.slots[slot];
    this.slots[slot] = undefined;
    await tab?.client.terminate();
  }

  /** The tab in slot dies, whatever it was doing: its lock is freed and its requests cut. */
  kill(slot: number): void {
    const tab = this.slots[slot];
    if (!tab) return;
    this.slots[slot] = undefined;
    tab.kill();
    this.locks.kill(tab.id);
    this.counts.killed++;
  }

  /** Writes through the tab in slot (opened first if need be). */
  async write(slot: number, writes: Write[]): Promise<void> {
    await this.open(slot);
    await this.slots[slot]!.client.write(writes);
    this.batches.push(writes);
  }

  setOnline(online: boolean): void {
    if (online === this.net.isOnline) return;
    this.net.setOnline(online);
    if (online) this.events.dispatchEvent(new Event('online'));
    else this.counts.offline++;
  }

  /** Deletes the database once the seed is over. The killed tabs' connections close when they
   * hear of it, so that nothing of theirs stays reachable through fake-indexeddb. */
  erase(): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = indexedDB.deleteDatabase(this.database);
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error ?? new Error(`deleting ${this.database} failed`));
    });
  }

  /** The open tabs' clients. */
  clients(): SyncClient[] {
    return this.slots.flatMap((t) => (t ? [t.client] : []));
  }
}
