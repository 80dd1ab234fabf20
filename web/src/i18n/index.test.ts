import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, ensureLocale, type Messages } from '.';
import en from '../locales/en.json';
import de from '../locales/de.json';

const loader = (table: Record<string, Messages | Error>) => async (code: string) => {
  const m = table[code];
  if (!m || m instanceof Error) throw m ?? new Error(`missing ${code}`);
  return m;
};

afterEach(() => vi.restoreAllMocks());

describe('i18n', () => {
  it('loads a locale together with the English fallback', async () => {
    const load = vi.fn(loader({ en, de: de as Messages }));
    const i18n = await createI18n('de', load);
    expect(load.mock.calls.map((c) => c[0]).sort()).toEqual(['de', 'en']);
    expect(i18n.language).toBe('de');
    expect(i18n.t('pages.faq.label')).toBe(de.pages.faq.label);
  });

  it('loads only English on English pages', async () => {
    const load = vi.fn(loader({ en }));
    await createI18n('en', load);
    expect(load.mock.calls.map((c) => c[0])).toEqual(['en']);
  });

  it('logs a failed load and goes on with the fallback', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const i18n = await createI18n('de', loader({ en, de: new Error('network down') }));
    expect(error).toHaveBeenCalledWith('Failed locale loading: network down');
    expect(i18n.t('pages.faq.label')).toBe(en.pages.faq.label);
  });

  it('does not load a locale twice', async () => {
    const load = vi.fn(loader({ en, de: de as Messages }));
    const i18n = await createI18n('en', load);
    await ensureLocale(i18n, 'de', load);
    await ensureLocale(i18n, 'de', load);
    expect(load.mock.calls.map((c) => c[0])).toEqual(['en', 'de']);
    expect(i18n.language).toBe('de');
  });
});
