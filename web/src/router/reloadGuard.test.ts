import { describe, expect, it } from 'vitest';
import { claimReload, reloadWindowMs } from './reloadGuard';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

describe('reload guard', () => {
  it('allows one reload per path per 10 seconds', () => {
    const s = memoryStorage();
    expect(claimReload('/de/faq', s, 1_000)).toBe(true);
    expect(claimReload('/de/faq', s, 1_000 + reloadWindowMs - 1)).toBe(false);
    expect(claimReload('/faq', s, 2_000)).toBe(true); // another path
    expect(claimReload('/de/faq', s, 1_000 + reloadWindowMs)).toBe(true);
  });

  it('allows none without storage, so that it can never loop', () => {
    expect(claimReload('/', undefined)).toBe(false);
    const broken = { ...memoryStorage(), getItem: () => { throw new Error('denied'); } } as Storage;
    expect(claimReload('/', broken)).toBe(false);
  });
});
