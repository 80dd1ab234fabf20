import { describe, expect, it, vi } from 'vitest';
import de from '../i18n/locales/de.json';
import en from '../i18n/locales/en.json';
import { createTranslator } from '../i18n/translator';
import type { LocaleCode } from '../lib/site';
import { createHttpClient, HttpError, readCookie, requestUrl, toastStatuses, type HttpDeps } from './http';
import type { ToastType } from './toasts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

interface SetupOptions {
  respond?: (call: Call) => Response | Promise<Response>;
  code?: LocaleCode;
  cookies?: string;
}

/** A client over fakes, and what it did: requests, overlay, toasts. */
function setup({ respond = () => new Response(null, { status: 204 }), code = 'en', cookies = '' }: SetupOptions = {}) {
  const stored = new Map<string, string>();
  const calls: Call[] = [];
  const log: string[] = [];
  const toasts: { message: string; type: ToastType }[] = [];
  const i18n = createTranslator(code);
  i18n.addBundle('en', 'translation', en);
  i18n.addBundle('de', 'translation', de);
  const onUnauthorized = vi.fn(() => void log.push(`unauthorized, token ${stored.get('token') ?? 'gone'}`));
  let open = 0;
  const deps: HttpDeps = {
    fetch: async (input, init) => {
      const call = {
        url: requestUrl(input),
        method: init?.method ?? 'GET',
        headers: (init?.headers ?? {}) as Record<string, string>,
        body: init?.body,
      };
      calls.push(call);
      log.push(`fetch ${call.method} ${call.url}`);
      return respond(call);
    },
    storage: () => ({ getItem: (k) => stored.get(k) ?? null, removeItem: (k) => void stored.delete(k) }),
    cookie: (name) => readCookie(name, cookies),
    overlay: {
      open: () => void log.push(`open ${++open}`),
      close: () => void log.push(`close ${--open}`),
    },
    toast: (message, type) => {
      toasts.push({ message, type });
      log.push(`toast ${message}`);
    },
    t: i18n.t,
    onUnauthorized,
  };
  return { http: createHttpClient(deps), stored, calls, log, toasts, onUnauthorized, openCount: () => open };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The rejection of `p`, which must be an HttpError. */
async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('http client', () => {
  it('calls the API under /api/v1 and hands back only the parsed body', async () => {
    const { http, calls } = setup({ respond: () => json(200, { id: 7 }) });
    await expect(http.get('/users/me')).resolves.toEqual({ id: 7 });
    await expect(http.get('history?limit=5')).resolves.toEqual({ id: 7 });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/users/me', '/api/v1/history?limit=5']);
  });

  it('resolves an empty 2xx answer as undefined', async () => {
    const { http } = setup({ respond: () => new Response(null, { status: 204 }) });
    await expect(http.delete('history/1')).resolves.toBeUndefined();
  });

  it('sends Bearer directly followed by the token read at each request, and none without one', async () => {
    const { http, stored, calls } = setup();
    await http.get('a');
    stored.set('token', 'abc123');
    await http.get('b');
    stored.set('token', 'def456');
    await http.get('c');
    expect(calls.map((c) => c.headers.Authorization)).toEqual([undefined, 'Bearerabc123', 'Bearerdef456']);
  });

  it('sends the XSRF cookie as X-XSRF-TOKEN on unsafe methods only', async () => {
    const { http, calls } = setup({ cookies: 'i18n_redirected=de; XSRF-TOKEN=x%2By; other=1' });
    await http.get('a');
    await http.post('a', {});
    await http.put('a', {});
    await http.patch('a', {});
    await http.delete('a');
    expect(calls.map((c) => [c.method, c.headers['X-XSRF-TOKEN']])).toEqual([
      ['GET', undefined],
      ['POST', 'x+y'],
      ['PUT', 'x+y'],
      ['PATCH', 'x+y'],
      ['DELETE', 'x+y'],
    ]);
  });

  it('sends no XSRF header without the cookie', async () => {
    const { http, calls } = setup({ cookies: 'XSRF-TOKENX=no' });
    await http.post('a', {});
    expect(calls[0].headers).not.toHaveProperty('X-XSRF-TOKEN');
  });

  it('sends a body as JSON with its Content-Type, and none without a body', async () => {
    const { http, calls } = setup();
    await http.post('prefs', { units: 'm', decimals: 2 });
    await http.post('ping');
    expect(calls[0].body).toBe('{"units":"m","decimals":2}');
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect(calls[1].body).toBeUndefined();
    expect(calls[1].headers).not.toHaveProperty('Content-Type');
  });

  it('shows the overlay for the request and closes it on the answer', async () => {
    const { http, log } = setup();
    await http.get('a');
    expect(log).toEqual(['open 1', 'fetch GET /api/v1/a', 'close 0']);
  });

  it('shows no overlay for a noLoad request', async () => {
    const { http, log } = setup();
    await http.get('a', { noLoad: true });
    await http.post('b', { x: 1 }, { noLoad: true });
    expect(log).toEqual(['fetch GET /api/v1/a', 'fetch POST /api/v1/b']);
  });

  it('keeps the overlay open until the last of concurrent requests answers', async () => {
    const pending = new Map<string, (r: Response) => void>();
    const { http, openCount } = setup({ respond: (c) => new Promise((done) => pending.set(c.url, done)) });
    const a = http.get('a');
    const b = http.get('b');
    const quiet = http.get('c', { noLoad: true });
    await vi.waitFor(() => expect(pending.size).toBe(3));
    expect(openCount()).toBe(2);
    pending.get('/api/v1/a')!(json(200, 1));
    await a;
    expect(openCount()).toBe(1);
    pending.get('/api/v1/c')!(json(200, 3));
    await quiet;
    expect(openCount()).toBe(1);
    pending.get('/api/v1/b')!(json(500, {}));
    await failure(b);
    expect(openCount()).toBe(0);
  });

  const english: Record<(typeof toastStatuses)[number], string> = {
    400: 'Request error',
    401: 'Your session has expired. Please sign in again.',
    403: 'Access denied',
    404: 'Error requesting address: /api/v1/tools/x',
    408: 'Request timeout',
    500: 'Internal server error',
    501: 'This service is not available yet',
    502: 'Gateway error',
    503: 'The service is temporarily unavailable',
    504: 'Gateway timeout',
    505: 'The HTTP version is not supported',
  };

  it.each(toastStatuses.map((s) => [s, english[s]] as const))(
    '%d: closes the overlay, shows "%s" as an error, then rejects with status and body',
    async (status, message) => {
      const { http, log, toasts } = setup({ respond: () => json(status, { error: 'why' }) });
      const err = await failure(http.get('tools/x'));
      expect(toasts).toEqual([{ message, type: 'error' }]);
      expect(log.slice(0, 3)).toEqual(['open 1', 'fetch GET /api/v1/tools/x', 'close 0']);
      expect(log[3]).toBe(`toast ${message}`);
      expect(err.status).toBe(status);
      expect(err.body).toEqual({ error: 'why' });
      expect(err.url).toBe('/api/v1/tools/x');
    },
  );

  it('shows the message in the page language, naming the URL for 404', async () => {
    const { http, toasts } = setup({ code: 'de', respond: (c) => json(c.url.endsWith('gone') ? 404 : 503, {}) });
    await failure(http.get('gone'));
    await failure(http.get('busy'));
    expect(toasts.map((t) => t.message)).toEqual([
      'Fehler beim Aufrufen der Adresse: /api/v1/gone',
      'Der Dienst ist vorübergehend nicht verfügbar',
    ]);
  });

  it('on 401 clears the stored token, then tells the app', async () => {
    const { http, stored, onUnauthorized, log } = setup({ respond: () => json(401, { error: 'expired' }) });
    stored.set('token', 'old');
    stored.set('theme', 'dark');
    const err = await failure(http.get('users/me'));
    expect(err.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(log.at(-1)).toBe('unauthorized, token gone');
    expect(stored.get('theme')).toBe('dark');
  });

  it('leaves the token alone on other failures', async () => {
    const { http, stored, onUnauthorized } = setup({ respond: () => json(403, {}) });
    stored.set('token', 'kept');
    await failure(http.get('x'));
    expect(stored.get('token')).toBe('kept');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it.each([402, 409, 418, 422, 429, 507, 302])('%d: no message, but a rejection with status and body', async (status) => {
    const { http, toasts, openCount } = setup({ respond: () => json(status, { error: 'nope' }) });
    const err = await failure(http.post('x', {}));
    expect(err.status).toBe(status);
    expect(err.body).toEqual({ error: 'nope' });
    expect(toasts).toEqual([]);
    expect(openCount()).toBe(0);
  });

  it('keeps a non-JSON error body as text', async () => {
    const { http } = setup({ respond: () => new Response('<h1>Bad gateway</h1>', { status: 502 }) });
    expect((await failure(http.get('x'))).body).toBe('<h1>Bad gateway</h1>');
  });

  it('rejects a network failure with status 0, no message, and the overlay closed', async () => {
    const cause = new TypeError('Failed to fetch');
    const { http, toasts, openCount, onUnauthorized } = setup({ respond: () => Promise.reject(cause) });
    const err = await failure(http.get('x'));
    expect(err.status).toBe(0);
    expect(err.cause).toBe(cause);
    expect(toasts).toEqual([]);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(openCount()).toBe(0);
  });
});

describe('readCookie', () => {
  it('finds a cookie by exact name and decodes it', () => {
    const jar = 'a=1; XSRF-TOKEN=t%3D1; b=';
    expect(readCookie('XSRF-TOKEN', jar)).toBe('t=1');
    expect(readCookie('b', jar)).toBe('');
    expect(readCookie('TOKEN', jar)).toBeUndefined();
    expect(readCookie('x', '')).toBeUndefined();
  });
});
