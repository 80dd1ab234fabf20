// The real server for the fault test: the handy binary built from this tree, on SQLite in a
// temporary directory, started by e2e/support/handy.mjs (the one way the Node side starts it),
// killed with SIGKILL and started again on the same port and database; and the few calls of the
// account and document API the test makes itself. Like cmd/handy/durability_test.go, it builds
// the binary rather than trusting ./handy to be fresh.
import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { root, startHandy, type Handy as Running, type HandyOptions } from '../../../../e2e/support/handy.mjs';
import type { Fields } from '../../../src/sync/values';

/** The XSRF cookie every request carries, and its header echo (any value of 32+ characters). */
export const xsrf = 'fault-test-xsrf-token-0123456789abcdef';

/** Builds cmd/handy into dir. The binary embeds web/dist: `make build` first. */
export async function buildHandy(dir: string): Promise<string> {
  const bin = path.join(dir, 'handy');
  await promisify(execFile)('go', ['build', '-o', bin, './cmd/handy'], { cwd: root });
  return bin;
}

export interface Account {
  uid: string;
  token: string;
}

/** Resolves once p has exited (at once if it has). */
function exited(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => p.once('exit', () => resolve()));
}

export class Handy {
  /** Its origin, the same across restarts. */
  readonly base: string;
  private up: Promise<void> = Promise.resolve();
  private restarting = false;
  /** Why it is down for good: it exited unasked, or failed to start again. */
  private crash: Error | undefined;
  /** The processes we ended (SIGKILL or SIGTERM): their exit is no crash. */
  private readonly ended = new WeakSet<ChildProcess>();

  private constructor(
    private running: Running,
    /** How to start it again: the same binary, flags, log, port and data directory. */
    private readonly again: HandyOptions,
  ) {
    this.base = running.url;
    this.watch(running);
  }

  /** Starts bin on a free port over dataDir, its output appended to the file log. */
  static async start(bin: string, dataDir: string, log: string): Promise<Handy> {
    // Every seed signs up from loopback (1,000 in a soak): lift the per-network sign-up limit.
    const options: HandyOptions = { bin, dataDir, log, args: ['-signup-limit', '1000000'] };
    const running = await startHandy(options);
    return new Handy(running, { ...options, port: running.port });
  }

  /** Resolves once the server listens (at once unless it is starting again); rejects, with
   * the end of its log, once it has crashed. */
  ready(): Promise<void> {
    return this.up;
  }

  /** SIGKILL, then the same binary again on the same port and database, in the background: the
   * start-up takes seconds (it compresses every page), during which the tabs find no server. A
   * kill while it is starting again is one kill, not two; a kill after a crash starts nothing,
   * so that the crash is not hidden. */
  kill(): void {
    if (this.restarting || this.crash) return;
    this.restarting = true;
    const old = this.running.process;
    this.ended.add(old);
    this.up = (async () => {
      old.kill('SIGKILL');
      await exited(old);
      try {
        this.running = await startHandy(this.again);
      } catch (e) {
        this.crash = e instanceof Error ? e : new Error(String(e));
        throw this.crash;
      }
      this.watch(this.running);
      this.restarting = false;
    })();
    this.up.catch(() => undefined); // the next ready() or call() reports it
  }

  /** SIGTERM, and waits for it to exit (after any restart under way, which would outlive it). */
  async stop(): Promise<void> {
    await this.up.catch(() => undefined);
    this.ended.add(this.running.process);
    await this.running.stop();
  }

  /** Once it has listened, an exit we did not ask for makes the next wait for it fail instead
   * of waiting forever. */
  private watch(running: Running): void {
    const p = running.process;
    void exited(p).then(() => {
      if (this.ended.has(p)) return;
      this.crash = new Error(`handy exited (${p.exitCode ?? p.signalCode}):\n${running.logTail()}`);
      this.up = Promise.reject(this.crash);
      this.up.catch(() => undefined);
    });
  }

  /** One call of the API as a browser makes it, sent again while the server is down or
   * starting (every call the test makes itself is idempotent). */
  async call<T>(method: string, apiPath: string, token?: string, body?: object): Promise<{ status: number; body: T }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await this.up;
      try {
        const res = await fetch(`${this.base}/api/v1/${apiPath}`, {
          method,
          headers: {
            Accept: 'application/json',
            Cookie: `XSRF-TOKEN=${xsrf}`,
            'X-XSRF-TOKEN': xsrf,
            ...(token && { Authorization: `Bearer ${token}` }),
            ...(body && { 'Content-Type': 'application/json' }),
          },
          body: body && JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as T };
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  async signUp(email: string): Promise<Account> {
    const a = await this.call<{ token: string; user: { id: string } }>('POST', 'auth/signup', undefined, { email, password: 'correct horse battery' });
    if (a.status !== 201) throw new Error(`sign-up: ${a.status} ${JSON.stringify(a.body)}`);
    return { uid: a.body.user.id, token: a.body.token };
  }

  /** The documents of the user's profile and history, by path, as the server has them. */
  async documents(a: Account): Promise<Map<string, Fields>> {
    const out = new Map<string, Fields>();
    const profile = await this.call<{ fields: Fields }>('GET', `db/documents/users/${a.uid}`, a.token);
    if (profile.status !== 200) throw new Error(`GET users/${a.uid}: ${profile.status} ${JSON.stringify(profile.body)}`);
    out.set(`users/${a.uid}`, profile.body.fields);
    const q = await this.call<{ documents: { name: string; fields: Fields }[] }>('POST', 'db/query', a.token, {
      parent: `users/${a.uid}`,
      structuredQuery: { from: [{ collectionId: 'history' }] },
    });
    if (q.status !== 200) throw new Error(`query the history: ${q.status} ${JSON.stringify(q.body)}`);
    for (const d of q.body.documents) out.set(d.name, d.fields);
    return out;
  }
}
