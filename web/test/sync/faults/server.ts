// The real server for the fault test: the handy binary built from this tree, on SQLite in a
// temporary directory, killed with SIGKILL and started again on the same port and database, and
// the few calls of the account and document API the test makes itself. Like
// cmd/handy/durability_test.go, it builds the binary rather than trusting ./handy to be fresh.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Fields } from '../../../src/sync/values';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

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

export class Handy {
  base = '';
  private addr = '127.0.0.1:0';
  private proc: ChildProcess | undefined;
  private up: Promise<void> = Promise.resolve();
  private restarting = false;
  private logTail = '';

  private constructor(
    private readonly bin: string,
    private readonly dataDir: string,
  ) {}

  static async start(bin: string, dataDir: string): Promise<Handy> {
    const h = new Handy(bin, dataDir);
    h.up = h.spawn();
    await h.up;
    return h;
  }

  /** Resolves once the server listens (at once unless it is starting again). */
  ready(): Promise<void> {
    return this.up;
  }

  /** SIGKILL, then the same binary again on the same port and database, in the background: the
   * start-up takes seconds (it compresses every page), during which the tabs find no server. A
   * kill while it is starting again is one kill, not two. */
  kill(): void {
    if (this.restarting) return;
    this.restarting = true;
    const proc = this.proc;
    this.up = (async () => {
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGKILL');
        await exited;
      }
      await this.spawn();
      this.restarting = false;
    })();
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  }

  private spawn(): Promise<void> {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HANDY_')));
    // Every seed signs up from loopback (1,000 in a soak): lift the per-network sign-up limit.
    const args = ['-addr', this.addr, '-data-dir', this.dataDir, '-log-level', 'info', '-signup-limit', '1000000'];
    const proc = spawn(this.bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`handy does not listen after 60 s:\n${this.logTail}`)), 60_000);
      let log: string | undefined = ''; // this start's, until it listens (logTail: the last 8 kB, for errors)
      const onLog = (chunk: Buffer) => {
        this.logTail = (this.logTail + chunk.toString()).slice(-8000);
        if (log === undefined) return;
        log += chunk.toString();
        const m = /msg=listening addr=(\S+)/.exec(log);
        if (!m) return;
        log = undefined;
        // The first start picks a free port; every restart takes the same one.
        this.addr = m[1];
        this.base = `http://${this.addr}`;
        clearTimeout(timer);
        resolve();
      };
      proc.stdout.on('data', onLog);
      proc.stderr.on('data', onLog);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL' || signal === 'SIGTERM') return;
        const crash = new Error(`handy exited (${code ?? signal}):\n${this.logTail}`);
        reject(crash);
        // Once it listened, the next wait for it fails instead of waiting forever.
        this.up = Promise.reject(crash);
        this.up.catch(() => undefined);
      });
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
