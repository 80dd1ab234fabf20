// The one HTTP client of the site, for our own API under /api/v1. Every call shows the loading
// overlay (unless `noLoad`), carries the stored sign-in token and, on unsafe methods, the XSRF
// header; a failed answer is told to the visitor in a toast (spec's status table), and then
// rejects so that the caller can react too. Its dependencies come in through
// `createHttpClient`, so it is tested without a browser.
import type { TFunction } from '../i18n/translator';
import { apiBase } from '../lib/api';
import { overlay } from './overlay';
import { toasts, type ToastType } from './toasts';

import { readCookie, tokenKey, xsrfCookie, xsrfHeader } from './credentials';

export { readCookie, tokenKey, xsrfCookie, xsrfHeader };

/** The statuses that get a message (spec's error catalogue); others fail silently. */
export const toastStatuses = [400, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505] as const;
type ToastStatus = (typeof toastStatuses)[number];

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A failed call: `status` is 0 when no answer came (network failure). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    /** The parsed answer: JSON when it was JSON, else its text; undefined when empty. */
    readonly body: unknown,
    readonly url: string,
    options?: ErrorOptions,
  ) {
    super(status ? `HTTP ${status} from ${url}` : `no answer from ${url}`, options);
  }
}

export interface HttpDeps {
  fetch: typeof fetch;
  /** localStorage, or undefined when storage is unavailable. */
  storage: () => Pick<Storage, 'getItem' | 'removeItem'> | undefined;
  /** A cookie's decoded value, or undefined. */
  cookie: (name: string) => string | undefined;
  overlay: { open(): void; close(): void };
  toast: (message: string, type: ToastType) => void;
  t: TFunction;
  /** After a 401, once the stored token is gone (the account UI signs out locally). */
  onUnauthorized: () => void;
}

export interface RequestOptions {
  /** No loading overlay for this call (background work). */
  noLoad?: boolean;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(deps: HttpDeps, base = apiBase) {
  const token = () => {
    try {
      return deps.storage()?.getItem(tokenKey) ?? undefined;
    } catch {
      return undefined; // storage refused: the call goes out signed out
    }
  };

  const headersFor = (method: string, json: boolean) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const bearer = token();
    if (bearer) headers.Authorization = `Bearer${bearer}`; // no space, as the spec has it
    const xsrf = unsafeMethods.has(method) ? deps.cookie(xsrfCookie) : undefined;
    if (xsrf) headers[xsrfHeader] = xsrf;
    if (json) headers['Content-Type'] = 'application/json';
    return headers;
  };

  const failed = (status: number, url: string) => {
    if (!(toastStatuses as readonly number[]).includes(status)) return;
    deps.toast(deps.t(`http.${status as ToastStatus}`, { url }), 'error');
    if (status !== 401) return;
    try {
      deps.storage()?.removeItem(tokenKey);
    } catch {
      // storage refused: there is no token to clear either
    }
    deps.onUnauthorized();
  };

  async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const url = `${base}/${path.replace(/^\/+/, '')}`;
    const raw = body instanceof FormData || body instanceof Blob; // uploads: the browser sets the type
    const json = body !== undefined && !raw;
    if (!options.noLoad) deps.overlay.open();
    let res: Response;
    let data: unknown;
    try {
      res = await deps.fetch(url, {
        method,
        headers: headersFor(method, json),
        body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
      });
      data = parse(await res.text());
    } catch (cause) {
      throw new HttpError(0, undefined, url, { cause });
    } finally {
      if (!options.noLoad) deps.overlay.close();
    }
    if (res.ok) return data as T;
    failed(res.status, url);
    throw new HttpError(res.status, data, url);
  }

  return {
    request,
    get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
    post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
    put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
    patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body, options),
    delete: <T = unknown>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
  };
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON (a proxy's error page): kept as text for the caller
  }
}

// The page's client. Its translator and sign-out come from the app once it has started
// (`connectHttp`); until then a message shows as its key, which a test or a look catches.
let appT: TFunction | undefined;
let appUnauthorized: () => void = () => {};

/** Gives the page's client the app's translator (`i18n.t`, which follows the language) and sign-out. */
export function connectHttp(app: { t: TFunction; onUnauthorized?: () => void }): void {
  appT = app.t;
  appUnauthorized = app.onUnauthorized ?? (() => {});
}

/** The page's one HTTP client; it touches the browser only when a call is made. */
export const http = createHttpClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  storage: () => globalThis.localStorage,
  cookie: (name) => readCookie(name),
  overlay,
  toast: (message, type) => void toasts.show(message, { type }),
  t: (key, values) => (appT ? appT(key, values) : key),
  onUnauthorized: () => appUnauthorized(),
});

/** The URL a fetch was called with, whichever form it took. */
export function requestUrl(input: RequestInfo | URL): string {
  return input instanceof Request ? input.url : input instanceof URL ? input.href : input;
}
