import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, hasStoredToken, initialOf, shownName, signedOut, type AccountUser } from './session';

const ada: AccountUser = { id: 'u1', email: 'ada@example.com', displayName: '', avatar: null };

describe('session store', () => {
  it('starts signed out and tells its listeners of each change', () => {
    const store = createSessionStore();
    const listener = vi.fn();
    const stop = store.subscribe(listener);
    expect(store.get()).toBe(signedOut);
    store.set({ status: 'checking' });
    store.set({ status: 'signed-in', user: ada });
    expect(store.get()).toEqual({ status: 'signed-in', user: ada });
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    store.set(signedOut);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('counts the themes the account applied, for the header switch to re-read', () => {
    const store = createSessionStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.themeApplied();
    store.themeApplied();
    expect(store.themeRevision()).toBe(2);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('stored token', () => {
  it('is there only when the key holds a token, and storage that refuses holds none', () => {
    const store = (value: string | null) => () => ({ getItem: (k: string) => (k === 'token' ? value : null) });
    expect(hasStoredToken(store('abc'))).toBe(true);
    expect(hasStoredToken(store(null))).toBe(false);
    expect(hasStoredToken(store(''))).toBe(false);
    expect(hasStoredToken(() => undefined)).toBe(false);
    expect(
      hasStoredToken(() => ({
        getItem: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      })),
    ).toBe(false);
  });
});

describe('names', () => {
  it('show the display name, else the email address, and its first letter', () => {
    expect(shownName(ada)).toBe('ada@example.com');
    expect(initialOf(ada)).toBe('A');
    const named = { ...ada, displayName: '  émile ' };
    expect(shownName(named)).toBe('émile');
    expect(initialOf(named)).toBe('É');
    expect(initialOf({ ...ada, displayName: '😀 smile' })).toBe('😀'); // a whole character, not half a surrogate pair
  });
});
