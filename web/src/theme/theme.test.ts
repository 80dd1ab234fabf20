import { describe, expect, it } from 'vitest';
import { applyTheme, nextTheme, storedTheme, themeKey, themeScript } from './theme';

/** What the theme code touches of <html>: its dataset. */
const fakeRoot = () => ({ dataset: {} }) as HTMLElement;

/** Runs the head script as the page does, with these as its globals. */
function runHeadScript(localStorage: Pick<Storage, 'getItem'>, root: HTMLElement): void {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script is text for the page's <head>; running it is the test
  const script = new Function('localStorage', 'document', themeScript) as (storage: unknown, document: unknown) => void;
  script(localStorage, { documentElement: root });
}

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('theme', () => {
  it('cycles automatic → light → dark → automatic', () => {
    expect([nextTheme('auto'), nextTheme('light'), nextTheme('dark')]).toEqual(['light', 'dark', 'auto']);
  });

  it('reads only the choices it knows', () => {
    const s = memoryStorage();
    expect(storedTheme(s)).toBe('auto');
    s.setItem(themeKey, 'dark');
    expect(storedTheme(s)).toBe('dark');
    s.setItem(themeKey, 'purple');
    expect(storedTheme(s)).toBe('auto');
    expect(storedTheme(undefined)).toBe('auto');
  });

  it('applies and remembers a choice; automatic forgets it', () => {
    const s = memoryStorage();
    const root = fakeRoot();
    applyTheme('dark', root, s);
    expect(root.dataset.theme).toBe('dark');
    expect(s.getItem(themeKey)).toBe('dark');
    applyTheme('auto', root, s);
    expect(root.dataset.theme).toBeUndefined();
    expect(s.getItem(themeKey)).toBeNull();
  });

  it('has a head script that applies the stored choice, and nothing else', () => {
    for (const [stored, want] of [['dark', 'dark'], ['light', 'light'], ['x', undefined], [null, undefined]] as const) {
      const s = memoryStorage();
      if (stored) s.setItem(themeKey, stored);
      const root = fakeRoot();
      runHeadScript(s, root);
      expect(root.dataset.theme, String(stored)).toBe(want);
    }
    // Storage that throws (disabled cookies) leaves the automatic theme.
    const root = fakeRoot();
    const throwing = { getItem: () => { throw new Error('denied'); } };
    expect(() => runHeadScript(throwing, root)).not.toThrow();
    expect(root.dataset.theme).toBeUndefined();
  });
});
