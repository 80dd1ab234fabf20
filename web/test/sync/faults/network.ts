// A device's network, between its tabs' createRemote and the real server: it goes offline (a
// request fails at once as fetch fails with no network, and requests in flight are cut), fails
// a request now and then, and drops the answer of a commit the server has applied, so that the
// engine sends the same batch again. It also writes down every commit answer it sees, dropped
// or not: the test's record of what the server applied, and at which version.
import type { Random } from './random';
import { xsrf } from './server';

export interface FaultRates {
  /** Of commits answered 200: the answer is lost after the server applied the commit. */
  drop: number;
  /** Of requests: no answer, nothing sent. */
  fail: number;
}

/** A commit the server answered. */
export interface SeenCommit {
  clientId: string;
  batchId: number;
  writes: object[];
  status: number;
  /** The commit's version (200), or the error (any other status). */
  version?: string;
  error?: string;
}

/** What a tab's requests need to know of it. */
export interface TabLine {
  dead: boolean;
  /** Aborted when the tab is killed: its requests in flight are cut. */
  cut: AbortSignal;
}

/** A promise that never settles: what a killed tab waits on. */
export const never = <T>() => new Promise<T>(() => undefined);

export class Network {
  private online = true;
  private cut = new AbortController();
  readonly commits: SeenCommit[] = [];
  readonly counts = { dropped: 0, failed: 0 };

  constructor(
    private readonly random: Random,
    public rates: FaultRates,
  ) {}

  get isOnline(): boolean {
    return this.online;
  }

  setOnline(online: boolean): void {
    if (!online) {
      this.cut.abort();
      this.cut = new AbortController();
    }
    this.online = online;
  }

  /** Node's fetch as one tab of this device has it. A killed tab's requests never settle: the
   * tab is gone, so whatever it was waiting for must not go on. */
  fetchFor(tab: TabLine): typeof fetch {
    return async (input, init = {}) => {
      if (tab.dead) return never();
      if (!this.online || this.random.chance(this.rates.fail)) {
        this.counts.failed++;
        throw new TypeError('fetch failed');
      }
      // Cut by going offline, by the tab's death, or by the caller. (Not AbortSignal.any, whose
      // listeners on the long-lived signals stay until it is collected.)
      const signals = [this.cut.signal, tab.cut, ...(init.signal ? [init.signal] : [])];
      const cut = new AbortController();
      const abort = () => cut.abort();
      for (const s of signals) {
        if (s.aborted) cut.abort();
        else s.addEventListener('abort', abort);
      }
      // The browser sends the cookie by itself.
      const headers = { ...(init.headers as Record<string, string>), Cookie: `XSRF-TOKEN=${xsrf}` };
      let res: Response;
      let text: string;
      try {
        res = await fetch(input, { ...init, headers, signal: cut.signal });
        text = await res.text(); // whole, so that a cut cannot fall between the answer and its body
      } catch (e) {
        if (tab.dead) return never();
        throw e;
      } finally {
        for (const s of signals) s.removeEventListener('abort', abort);
      }
      if (tab.dead) return never();
      // createRemote sends a URL string and a JSON string.
      if (typeof input === 'string' && input.endsWith('/commit') && typeof init.body === 'string') {
        this.record(init.body, res.status, text);
        if (res.ok && this.random.chance(this.rates.drop)) {
          this.counts.dropped++;
          throw new TypeError('fetch failed');
        }
      }
      return new Response(text, { status: res.status, headers: res.headers });
    };
  }

  private record(request: string, status: number, answer: string): void {
    const { clientId, batchId, writes } = JSON.parse(request) as { clientId: string; batchId: number; writes: object[] };
    const a = JSON.parse(answer) as { version?: string; error?: { code: string; message: string } };
    this.commits.push({ clientId, batchId, writes, status, version: a.version, error: a.error && `${a.error.code}: ${a.error.message}` });
  }
}
