// navigator.locks for the tabs of one device, in memory (Node has no Web Locks): exclusive
// requests granted in turn, an aborted request leaving the line, and a tab that is killed
// freeing its lock at once, as a browser does for a tab that dies. The callback of a killed
// tab never ends, so the lock must not wait for it.

interface Request {
  tab: string;
  grant: () => void;
}

export class DeviceLocks {
  private holders = new Map<string, Request>();
  private lines = new Map<string, Request[]>();

  /** The LockManager a tab sees. */
  forTab(tab: string): LockManager {
    const request = (name: string, options: { signal?: AbortSignal }, fn: () => Promise<unknown>) => this.request(tab, name, options, fn);
    return { request } as unknown as LockManager;
  }

  /** The tab is gone: its lock goes to the next in line, and its waiting requests leave it
   * (their promises never settle, as nothing is left to hear them). */
  kill(tab: string): void {
    for (const [name, line] of this.lines) this.lines.set(name, line.filter((r) => r.tab !== tab));
    for (const [name, holder] of this.holders) if (holder.tab === tab) this.release(name, holder);
  }

  private request(tab: string, name: string, options: { signal?: AbortSignal }, fn: () => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
      const r: Request = {
        tab,
        grant: () => {
          this.holders.set(name, r);
          void fn()
            .then(resolve, reject)
            .finally(() => this.release(name, r));
        },
      };
      if (!this.holders.has(name)) return r.grant();
      const line = this.lines.get(name) ?? [];
      this.lines.set(name, line);
      line.push(r);
      options.signal?.addEventListener(
        'abort',
        () => {
          const waiting = this.lines.get(name) ?? [];
          if (!waiting.includes(r)) return; // granted meanwhile: the callback sees the abort
          this.lines.set(name, waiting.filter((w) => w !== r));
          reject(new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
    });
  }

  /** Frees name if r holds it (a killed holder's callback may end much later). */
  private release(name: string, r: Request): void {
    if (this.holders.get(name) !== r) return;
    this.holders.delete(name);
    this.lines.get(name)?.shift()?.grant();
  }
}
