import { describe, expect, it } from 'vitest';
import { createHttpClient, HttpError, readCookie, requestUrl, type HttpDeps } from '../../ui/http';
import { accountUser, createAccountApi, failureOf } from './api';

interface Call {
  client: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  overlay: boolean;
}

/** The account API over two real clients whose fetch is a fake: what went out, and in what order. */
function setup(opts: { cookies?: string; respond?: (call: Call) => Response } = {}) {
  let cookies = opts.cookies ?? '';
  const calls: Call[] = [];
  const client = (name: string) => {
    let overlay = false;
    const deps: HttpDeps = {
      fetch: async (input, init) => {
        const call: Call = {
          client: name,
          method: init?.method ?? 'GET',
          url: requestUrl(input),
          headers: (init?.headers ?? {}) as Record<string, string>,
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
          overlay,
        };
        calls.push(call);
        if (call.url.endsWith('/auth/xsrf')) cookies = 'XSRF-TOKEN=issued';
        return opts.respond?.(call) ?? new Response(JSON.stringify({ ok: true }), { status: 200 });
      },
      storage: () => ({ getItem: () => 'tok', removeItem: () => {} }),
      cookie: (n) => readCookie(n, cookies),
      overlay: { open: () => void (overlay = true), close: () => void (overlay = false) },
      toast: () => {},
      t: (k) => k,
      onUnauthorized: () => {},
    };
    return createHttpClient(deps);
  };
  const api = createAccountApi({ http: client('page'), forms: client('forms'), cookie: (n) => readCookie(n, cookies) });
  const summary = () => calls.map((c) => `${c.client} ${c.method} ${c.url}${c.overlay ? '' : ' (no overlay)'}`);
  return { api, calls, summary };
}

describe('account API', () => {
  it('asks for the XSRF cookie before the first change, then sends it', async () => {
    const { api, calls, summary } = setup();
    await api.signIn({ email: 'a@b.co', password: 'secret123', locale: 'de' });
    await api.update({ displayName: 'Ada' });
    expect(summary()).toEqual([
      'page GET /api/v1/auth/xsrf (no overlay)',
      'forms POST /api/v1/auth/signin',
      'forms PATCH /api/v1/auth/me',
    ]);
    expect(calls[1].body).toEqual({ email: 'a@b.co', password: 'secret123', locale: 'de' });
    expect(calls[1].headers['X-XSRF-TOKEN']).toBe('issued');
    expect(calls[2].headers['X-XSRF-TOKEN']).toBe('issued');
  });

  it('reads the session in the background, and exports with the overlay', async () => {
    const { api, summary } = setup({ cookies: 'XSRF-TOKEN=x' });
    await api.me();
    await api.exportData();
    expect(summary()).toEqual(['page GET /api/v1/auth/me (no overlay)', 'page GET /api/v1/auth/me/export']);
  });

  it('sends a display name at sign-up only when there is one', async () => {
    const { api, calls } = setup({ cookies: 'XSRF-TOKEN=x' });
    await api.signUp({ email: 'a@b.co', password: 'secret123', locale: 'en', displayName: '' });
    await api.signUp({ email: 'a@b.co', password: 'secret123', locale: 'en', displayName: 'Ada' });
    expect(calls.map((c) => c.body)).toEqual([
      { email: 'a@b.co', password: 'secret123', locale: 'en' },
      { email: 'a@b.co', password: 'secret123', locale: 'en', displayName: 'Ada' },
    ]);
  });

  it('deletes with the password in the body, and signs out through the page client', async () => {
    const { api, calls, summary } = setup({ cookies: 'XSRF-TOKEN=x', respond: () => new Response(null, { status: 204 }) });
    await api.remove('secret123');
    await api.signOut();
    expect(summary()).toEqual(['forms DELETE /api/v1/auth/me', 'page POST /api/v1/auth/signout (no overlay)']);
    expect(calls[0].body).toEqual({ password: 'secret123' });
    expect(calls[0].headers.Authorization).toBe('Bearertok');
  });
});

describe('failures', () => {
  const error = (status: number, code?: string) => new HttpError(status, code ? { error: { code, message: 'x' } } : 'Bad Gateway', '/api/v1/auth/signin');

  it("carry the API's code, or say that no answer came", () => {
    expect(failureOf(error(401, 'wrong-credentials'))).toEqual({ code: 'wrong-credentials', status: 401 });
    expect(failureOf(error(502))).toEqual({ code: 'other', status: 502 });
    expect(failureOf(error(0))).toEqual({ code: 'network', status: 0 });
    expect(failureOf(new TypeError('boom'))).toEqual({ code: 'other', status: 0 });
  });

  it('say when to retry a rate-limited sign-in', () => {
    const retry = (url: string) => (url === '/api/v1/auth/signin' ? '840' : null);
    expect(failureOf(error(429, 'rate-limited'), retry)).toEqual({ code: 'rate-limited', status: 429, retryAfter: 840 });
    expect(failureOf(error(429, 'rate-limited'), () => 'soon')).toEqual({ code: 'rate-limited', status: 429 });
  });
});

it("keeps of an answer what the header shows", () => {
  const me = {
    user: { id: 'u1', email: 'ada@example.com', createdAt: '', lastSignInAt: '' },
    profile: { email: 'ada@example.com', displayName: 'Ada', avatar: '', locale: 'en', preferences: {}, createdAt: '', lastSignInAt: '' },
  };
  expect(accountUser(me)).toEqual({ id: 'u1', email: 'ada@example.com', displayName: 'Ada', avatar: null });
  expect(accountUser({ ...me, profile: { ...me.profile, avatar: 'data:image/jpeg;base64,/9j/' } }).avatar).toBe('data:image/jpeg;base64,/9j/');
});
