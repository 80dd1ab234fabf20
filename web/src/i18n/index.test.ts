import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, ensureMessages, ensureNamespaces, type Loader, type Namespace } from '.';
import en from './locales/en.json';
import de from './locales/de.json';
import calcEn from '../calculator/locales/en.json';
import calculatorDe from '../calculator/locales/de.json';

// A feature's namespaces, as its own files would give them (i18n knows no feature).
const areaDe = { title: 'Flächenrechner' };
const accountDe = { signIn: 'Anmelden' };
const accountEn = { signIn: 'Sign in' };

type Table = Record<string, object | Error>;

const loader = (table: Table) =>
  vi.fn<Loader>(async (ns: Namespace, code: string) => {
    const m = table[`${ns}/${code}`];
    if (!m || m instanceof Error) throw m ?? new Error(`missing ${ns}/${code}`);
    return m;
  });
const calls = (load: ReturnType<typeof loader>) => load.mock.calls.map(([ns, code]) => `${ns}/${code}`).sort();

afterEach(() => vi.restoreAllMocks());

describe('i18n', () => {
  it('loads only the page locale: the build guarantees it is complete', async () => {
    const load = loader({ 'translation/de': de });
    const i18n = await createI18n('de', 'faq', load);
    expect(calls(load)).toEqual(['translation/de']);
    expect(i18n.language).toBe('de');
    expect(i18n.t('pages.faq.label')).toBe(de.pages.faq.label);
  });

  it("loads a page's own namespaces with it", async () => {
    const load = loader({ 'translation/de': de, 'calculator/de': calculatorDe, 'area/de': areaDe });
    const i18n = await createI18n('de', 'area-calculator', load);
    expect(calls(load)).toEqual(['area/de', 'calculator/de', 'translation/de']);
    expect(i18n.t('calculator:reset')).toBe(calculatorDe.reset);
  });

  it('logs a failed load and goes on with the English fallback of that namespace', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = loader({ 'translation/de': new Error('network down'), 'translation/en': en, 'calculator/de': calculatorDe });
    const i18n = await createI18n('de', 'speed-calculator', load);
    expect(error).toHaveBeenCalledWith('Failed locale loading: network down');
    expect(i18n.t('pages.faq.label')).toBe(en.pages.faq.label);
    expect(i18n.t('calculator:reset')).toBe(calculatorDe.reset);
    expect(calls(load)).not.toContain('calculator/en');
  });

  it('does not load a namespace twice', async () => {
    const load = loader({ 'translation/en': en, 'translation/de': de, 'calculator/de': calculatorDe, 'calculator/en': calcEn });
    const i18n = await createI18n('en', undefined, load);
    await ensureMessages(i18n, 'de', undefined, load);
    await ensureMessages(i18n, 'de', undefined, load);
    expect(calls(load)).toEqual(['translation/de', 'translation/en']);
    expect(i18n.language).toBe('de');
  });

  it("loads a feature's namespaces on demand, in the current language, once", async () => {
    const load = loader({ 'translation/de': de, 'account/de': accountDe, 'calculator/de': calculatorDe });
    const i18n = await createI18n('de', 'faq', load);
    await ensureNamespaces(i18n, ['account', 'calculator'], load);
    await ensureNamespaces(i18n, ['account'], load);
    expect(calls(load)).toEqual(['account/de', 'calculator/de', 'translation/de']);
    expect(i18n.fixedT('account')('signIn')).toBe(accountDe.signIn);
    expect(i18n.language).toBe('de');
  });

  it("falls back to English for a feature's namespace that fails to load", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = loader({ 'translation/de': de, 'account/de': new Error('offline'), 'account/en': accountEn });
    const i18n = await createI18n('de', undefined, load);
    await ensureNamespaces(i18n, ['account'], load);
    expect(error).toHaveBeenCalledWith('Failed locale loading: offline');
    expect(i18n.t('account:signIn')).toBe(accountEn.signIn);
  });
});
