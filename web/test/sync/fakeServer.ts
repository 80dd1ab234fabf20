// The document API in memory, for the data layer's tests (never imported by the site).
import type { CommitAnswer, ListenAnswer, Remote, RemoteDocument } from '../../src/sync/engine';
import { SyncError } from '../../src/sync/errors';
import type { Fields } from '../../src/sync/values';

/** The document API in memory, as internal/docstore answers: versions, exactly-once batches,
 * long polls; and faults to inject. */
export class FakeServer implements Remote {
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
  /** The next listen answers a reset with the live documents (tombstones were pruned). */
  resetNext = false;
  /** Pages listen answers as the real server does (it stops at a version boundary past 1000
   * changes or 4 MiB): at most this many versions' changes, the rest from the answer's version. */
  pageVersions = Infinity;
  /** The listens answered. */
  listens = 0;
  /** The most gets in flight at once, and how many there were. */
  getsAtOnce = 0;
  gets = 0;
  private inFlight = 0;
  /** Refuses for good any commit writing a path it returns an error for, remembering that
   * answer as the real server does. */
  refuse: (path: string) => SyncError | undefined = () => undefined;
  refused = new Map<string, SyncError>();

  commit(body: { writes: object[]; clientId: string; batchId: number }): Promise<CommitAnswer> {
    const fault = this.faults.shift();
    if (fault === 'down') return Promise.reject(new SyncError('unavailable', 'no answer'));
    if (fault instanceof SyncError) return Promise.reject(fault);
    const key = `${body.clientId}/${body.batchId}`;
    const names = (body.writes as { update?: { name: string }; delete?: string }[]).map((w) => w.update?.name ?? w.delete ?? '');
    const refusal = this.refused.get(key) ?? names.map((n) => this.refuse(n)).find((e) => e);
    if (refusal) {
      this.refused.set(key, refusal);
      return Promise.reject(refusal);
    }
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

  async get(path: string): Promise<RemoteDocument | null> {
    this.gets++;
    this.getsAtOnce = Math.max(this.getsAtOnce, ++this.inFlight);
    await new Promise((r) => setTimeout(r, 1));
    this.inFlight--;
    const d = this.docs.get(path);
    return d ? { name: path, fields: d.fields, updateTime: d.updateTime, version: String(d.version) } : null;
  }

  async listen(since: number, _timeout: number, signal: AbortSignal, onOpen?: () => void): Promise<ListenAnswer> {
    if (this.listenDown) throw new SyncError('unavailable', 'no answer');
    onOpen?.(); // as the real server sends its headers once the listen waits
    this.listens++;
    if (this.resetNext) {
      this.resetNext = false;
      const changes = [...this.docs].map(([name, d]) => ({ name, fields: d.fields, updateTime: d.updateTime, version: String(d.version) }));
      return this.page({ reset: true, version: String(this.version), changes });
    }
    for (;;) {
      const changes: ListenAnswer['changes'] = [];
      for (const [name, d] of this.docs) if (d.version > since) changes.push({ name, fields: d.fields, updateTime: d.updateTime, version: String(d.version) });
      // As the real server: since 0 asks for the live documents only, without the deletions.
      if (since > 0) for (const [name, v] of this.tombstones) if (v > since) changes.push({ name, deleted: true, updateTime: `t${v}`, version: String(v) });
      if (changes.length > 0) return this.page({ reset: false, version: String(this.version), changes });
      since = this.version; // nothing live: wait for what comes after now
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    }
  }

  /** The answer's first pageVersions versions, whole, resuming from the last of them. */
  private page(a: ListenAnswer): ListenAnswer {
    const versions = [...new Set(a.changes.map((c) => Number(c.version)))].sort((x, y) => x - y);
    if (versions.length <= this.pageVersions) return a;
    const last = versions[this.pageVersions - 1];
    const changes = a.changes.filter((c) => Number(c.version) <= last).sort((x, y) => Number(x.version) - Number(y.version));
    return { ...a, version: String(last), changes, more: true, horizon: '0' };
  }
}
