import { describe, expect, it, vi } from 'vitest';
import { createTranslator } from '../../i18n/translator';
import accountEn from './locales/en.json';
import en from '../../i18n/locales/en.json';
import type { Preferences } from '../../lib/preferences';
import { HttpError } from '../../ui/http';
import type { AccountApi, Me } from './api';
import type { UserDocument } from '../history/public';
import { createAccount, exportFileName } from './controller';
import { prefsForm } from './logic/prefsForm';
import { createSessionStore } from './session';

const me = (over: Partial<Me['profile']> = {}): Me => ({
  user: { id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00Z', lastSignInAt: '2026-01-02T00:00:00Z' },
  profile: {
    email: 'ada@example.com',
    displayName: '',
    avatar: null,
    locale: 'en',
    preferences: {},
    createdAt: '2026-01-01T00:00:00Z',
    lastSignInAt: '2026-01-02T00:00:00Z',
    ...over,
  },
});

const apiError = (status: number, code: string) => new HttpError(status, { error: { code, message: code } }, '/api/v1/auth/x');

/** An account over fakes; `api` answers what a test says. */
function setup(api: Partial<AccountApi> = {}, options: { synced?: UserDocument } = {}) {
  const i18n = createTranslator('en');
  i18n.addBundle('en', 'translation', en);
  i18n.addBundle('en', 'account', accountEn);
  const session = createSessionStore();
  const stored = { token: undefined as string | undefined };
  const log: string[] = [];
  const prefs: Preferences[] = [];
  const files: { name: string; text: string }[] = [];
  const history: string[] = [];
  const synced = options.synced;
  const account = createAccount({
    api: api as AccountApi,
    session,
    tokens: { set: (t) => void (stored.token = t), clear: () => void (stored.token = undefined) },
    setPreferences: (p) => void prefs.push(p),
    applyTheme: (c) => void log.push(`theme ${c}`),
    toast: (message, type) => void log.push(`${type}: ${message}`),
    t: i18n.fixedT('account'),
    locale: () => 'de',
    download: (name, text) => void files.push({ name, text }),
    history: {
      enter: async (uid, keep) => void history.push(`enter ${uid}${keep ? ' keeping' : ''}`),
      leave: async (erase) => void history.push(erase ? 'leave, erasing' : 'leave'),
      userDocument: async (uid) => (uid === undefined || uid === 'u1' ? synced : undefined),
    },
  });
  return { account, session, stored, log, prefs, files, history };
}

describe('account', () => {
  it('signs in: keeps the token, shows the user, hands over preferences and the theme', async () => {
    const preferences = { theme: 'dark', tools: { 'area-calculator': { unit: 'cm', dp: '2' } } };
    const signIn = vi.fn(async () => ({ ...me({ displayName: 'Ada', preferences }), token: 't1' }));
    const { account, session, stored, log, prefs, history } = setup({ signIn });
    expect(await account.signIn({ email: 'ada@example.com', password: 'secret123' })).toBeUndefined();
    expect(history).toEqual(['enter u1 keeping']); // the device's history goes into the account
    expect(signIn).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'secret123', locale: 'de' });
    expect(stored.token).toBe('t1');
    expect(session.get()).toEqual({ status: 'signed-in', user: { id: 'u1', email: 'ada@example.com', displayName: 'Ada', avatar: null } });
    expect(prefs).toEqual([preferences]);
    expect(session.themeRevision()).toBe(1);
    expect(log).toEqual(['theme dark', 'success: Signed in as Ada.']);
  });

  it('leaves the theme of this device alone when the account has none', async () => {
    const { account, log, history } = setup({ signUp: async () => ({ ...me(), token: 't1' }) });
    await account.signUp({ email: 'ada@example.com', password: 'secret123' }, false);
    expect(log).toEqual(['success: Your account has been created. Welcome!']);
    expect(history).toEqual(['enter u1']); // declined: the device's history stays on the device
  });

  it('hands a failed sign-in back to the form, changing nothing', async () => {
    const { account, session, stored, log } = setup({ signIn: async () => Promise.reject(apiError(401, 'wrong-credentials')) });
    expect(await account.signIn({ email: 'ada@example.com', password: 'nope' })).toEqual({ code: 'wrong-credentials', status: 401 });
    expect(session.get().status).toBe('signed-out');
    expect(stored.token).toBeUndefined();
    account.expired(); // the forms' client also reports the 401: nothing to sign out of
    expect(log).toEqual([]);
  });

  it('signs out when a signed-in change meets an expired token', async () => {
    const { account, session, stored, log, prefs, history } = setup({
      signIn: async () => ({ ...me(), token: 't1' }),
      update: async () => Promise.reject(apiError(401, 'unauthenticated')),
    });
    await account.signIn({ email: 'ada@example.com', password: 'secret123' });
    log.length = 0;
    expect(await account.updateProfile({ displayName: 'Ada' })).toEqual({ code: 'unauthenticated', status: 401 });
    account.expired(); // what the forms' client does on that 401
    expect(session.get().status).toBe('signed-out');
    expect(stored.token).toBeUndefined();
    expect(prefs.at(-1)).toEqual({});
    expect(log).toEqual(['error: Your session has expired. Please sign in again.']);
    expect(history).toEqual(['enter u1 keeping', 'leave']); // unsent changes stay for the next sign-in
  });

  it('resumes a stored session, or leaves it unconfirmed when the server cannot say', async () => {
    const ok = setup({ me: async () => me({ displayName: 'Ada' }) });
    ok.session.set({ status: 'checking' });
    expect(await ok.account.resume()).toBe(true);
    expect(ok.session.get().status).toBe('signed-in');
    expect(ok.log).toEqual([]); // no theme, no toast: this device already looks as it should
    expect(ok.history).toEqual(['enter u1']);

    const offline = setup({ me: async () => Promise.reject(new HttpError(0, undefined, '/api/v1/auth/me')) });
    offline.session.set({ status: 'checking' });
    expect(await offline.account.resume()).toBe(false);
    expect(offline.session.get().status).toBe('checking');
    expect(offline.history).toEqual([]);
  });

  it('signs out on this device even when the server cannot be told', async () => {
    const { account, session, stored, log, history } = setup({
      signIn: async () => ({ ...me(), token: 't1' }),
      signOut: async () => Promise.reject(new HttpError(0, undefined, '/api/v1/auth/signout')),
    });
    await account.signIn({ email: 'ada@example.com', password: 'secret123' });
    await account.signOut();
    expect(history.at(-1)).toBe('leave, erasing');
    expect(session.get().status).toBe('signed-out');
    expect(stored.token).toBeUndefined();
    expect(log.at(-1)).toBe('info: You are signed out.');
  });

  it('saves preferences: every setting, shown to the pages, the theme applied', async () => {
    const update = vi.fn(async (patch: { preferences?: object }) => me({ preferences: patch.preferences }));
    const { account, prefs, log } = setup({ update });
    const form = prefsForm({}, { theme: 'auto', language: 'en' });
    form.area.unit = 'cm';
    form.area.dp = '2';
    form.theme = 'light';
    form.language = 'jp';
    expect(await account.savePreferences(form)).toBeUndefined();
    const saved = {
      theme: 'light',
      language: 'jp',
      tools: { 'area-calculator': { unit: 'cm', in: '', dp: '2' }, 'speed-calculator': { vu: 'km-h', du: 'km', dp: '6' } },
    };
    expect(update).toHaveBeenCalledWith({ preferences: saved });
    expect(prefs.at(-1)).toEqual(saved);
    expect(log).toEqual(['theme light']);
  });

  it('keeps preferences in the synced copy when there is one: saved at once (offline too), and followed', async () => {
    const fields: Record<string, unknown> = { preferences: { theme: 'dark', tools: { 'area-calculator': { unit: 'cm' } } } };
    const listeners = new Set<() => void>();
    const synced: UserDocument = {
      read: async () => structuredClone(fields) as Awaited<ReturnType<UserDocument['read']>>,
      set: async (name, value) => {
        fields[name] = value;
        listeners.forEach((fn) => fn());
      },
      subscribe: (fn) => (listeners.add(fn), () => listeners.delete(fn)),
    };
    const update = vi.fn();
    const { account, prefs } = setup({ signIn: async () => ({ ...me(), token: 't1' }), update }, { synced });
    // A stored session, not yet confirmed: the copy's preferences reach the pages at once.
    await account.followPreferences();
    expect(prefs.at(-1)).toEqual(fields.preferences);
    await account.signIn({ email: 'ada@example.com', password: 'secret123' });
    const form = prefsForm({}, { theme: 'auto', language: 'en' });
    form.theme = 'light';
    expect(await account.savePreferences(form)).toBeUndefined();
    expect(update).not.toHaveBeenCalled(); // the copy sends it; no call to the server here
    expect((fields.preferences as { theme: string }).theme).toBe('light');
    expect(prefs.at(-1)).toMatchObject({ theme: 'light' });
    // Another device changes them: the pages follow.
    await synced.set('preferences', { theme: 'dark', language: 'fr' });
    await vi.waitFor(() => expect(prefs.at(-1)).toEqual({ theme: 'dark', language: 'fr' }));
  });

  it('refuses to delete with a wrong password, and signs out once deleted', async () => {
    const remove = vi.fn(async (password: string) => {
      if (password !== 'secret123') throw apiError(403, 'wrong-password');
    });
    const { account, session, stored, log, history } = setup({ signIn: async () => ({ ...me(), token: 't1' }), remove });
    await account.signIn({ email: 'ada@example.com', password: 'secret123' });
    expect(await account.deleteAccount('wrong')).toEqual({ code: 'wrong-password', status: 403 });
    expect(session.get().status).toBe('signed-in');
    expect(await account.deleteAccount('secret123')).toBeUndefined();
    expect(session.get().status).toBe('signed-out');
    expect(stored.token).toBeUndefined();
    expect(log.at(-1)).toBe('success: Your account has been deleted.');
    expect(history.at(-1)).toBe('leave, erasing');
  });

  it('exports all of the data as a JSON file', async () => {
    const data = { user: { id: 'u1' }, documents: [{ path: 'users/u1' }] };
    const { account, files } = setup({ exportData: async () => data });
    expect(await account.exportData()).toBe(true);
    expect(files).toEqual([{ name: exportFileName, text: `${JSON.stringify(data, null, 2)}\n` }]);
    expect(exportFileName).toBe('handy-tools-account.json');
  });

  it('reads the storage used and the quota afresh from GET /auth/me, quietly undefined when it fails', async () => {
    const storage = { used: 12_000_000, quota: 67_108_864 };
    expect(await setup({ me: async () => ({ ...me(), storage }) }).account.storage()).toEqual(storage);
    const { account, log } = setup({ me: async () => Promise.reject(apiError(500, 'internal')) });
    expect(await account.storage()).toBeUndefined();
    expect(log).toEqual([]);
  });
});
