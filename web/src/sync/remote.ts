// The document API over fetch, for the engine: background calls, so no loading overlay and no
// toast (the History panel shows the sync state instead). Errors become SyncErrors with the
// API's code; no answer at all is `unavailable`; Retry-After is kept for the backoff.
import { apiUrl, xsrfHeader, type ApiPath } from '../lib/api';
import type { CommitAnswer, ListenAnswer, Remote, RemoteDocument } from './engine';
import { RetryableError } from './engine';
import { SyncError, type SyncCode } from './errors';

export interface RemoteDeps {
  fetch: typeof fetch;
  /** The stored sign-in token, if any. */
  token: () => string | undefined;
  /** The XSRF-TOKEN cookie's value, if any. */
  xsrf: () => string | undefined;
  /** Replaces the store's endpoints' common root ("/api/v1/db"): a test's server. */
  base?: string;
}

export function createRemote(deps: RemoteDeps): Remote {
  // Every path comes from api.json; the store's endpoints share a root, which `base` replaces.
  const commitUrl = apiUrl('dbCommit');
  const root = commitUrl.slice(0, commitUrl.lastIndexOf('/'));
  const url = (name: ApiPath) => (deps.base ?? root) + apiUrl(name).slice(root.length);
  /** onOpen: the status and headers arrived (a waiting listen sends them at once). */
  async function call<T>(target: string, init: RequestInit, onOpen?: () => void): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = deps.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (init.method === 'POST') {
      headers['Content-Type'] = 'application/json';
      const xsrf = deps.xsrf();
      if (xsrf) headers[xsrfHeader] = xsrf;
    }
    let res: Response;
    try {
      res = await deps.fetch(target, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
    } catch (e) {
      if (init.signal?.aborted) throw e;
      throw new SyncError('unavailable', 'no answer from the server');
    }
    if (res.ok) onOpen?.();
    const body = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    // A listen that failed after its headers went out says so in its body.
    if (res.ok && body && !body.error) return body as T;
    if (res.ok && !body) throw new SyncError('unavailable', 'the answer was cut off');
    // The XSRF cookie comes with any answer of the API, this one included: the first commit of
    // a page that has not called the API yet goes again, rather than being undone.
    if (body?.error?.code === 'xsrf') throw new RetryableError('aborted', body.error.message ?? 'XSRF cookie missing', 0);
    const code = (body?.error?.code ?? (res.status >= 500 ? 'unavailable' : 'invalid-argument')) as SyncCode;
    const message = body?.error?.message ?? `HTTP ${res.status}`;
    const retry = Number(res.headers.get('Retry-After'));
    if (retry > 0) throw new RetryableError(code, message, retry * 1000);
    // A 5xx without a code of ours (a proxy's 502) is as good as no answer.
    throw new SyncError(res.status >= 500 && !body?.error ? 'unavailable' : code, message);
  }
  return {
    commit: (body) => call<CommitAnswer>(url('dbCommit'), { method: 'POST', body: JSON.stringify(body) }),
    get: (path, signal) =>
      call<RemoteDocument>(`${url('dbDocuments')}/${path}`, { method: 'GET', signal }).catch((e: unknown) => {
        if (e instanceof SyncError && e.code === 'not-found') return null;
        throw e;
      }),
    listen: (since, timeout, signal, onOpen, continued) =>
      call<ListenAnswer>(`${url('dbListen')}?since=${since}&timeout=${timeout}s${continued === undefined ? '' : `&continue=${continued}`}`, { method: 'GET', signal }, onOpen),
  };
}
