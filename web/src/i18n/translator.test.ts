import { describe, expect, it, vi } from 'vitest';
import { createTranslator } from './translator';

function setup() {
  const i18n = createTranslator('de');
  i18n.addBundle('en', 'translation', { site: { name: 'Handy Tools', only: 'English only' }, hi: 'Hello {{name}}' });
  i18n.addBundle('de', 'translation', { site: { name: 'Handy-Werkzeuge' }, hi: 'Hallo {{name}}, {{ name }}!' });
  i18n.addBundle('de', 'calculator', { reset: 'Zurücksetzen', errors: { notANumber: 'Zum Beispiel {{example}}' } });
  return i18n;
}
type Loose = (key: string, values?: Record<string, string | number>) => string;

describe('translator', () => {
  it('finds nested keys in the current language', () => {
    expect(setup().t('site.name')).toBe('Handy-Werkzeuge');
  });

  it('falls back to English, then to the key itself', () => {
    const t = setup().t as unknown as Loose;
    expect(t('site.only')).toBe('English only');
    expect(t('site.nothing')).toBe('site.nothing');
    expect(t('site')).toBe('site'); // an object is not a message
  });

  it('interpolates every {{name}}, leaving unknown ones alone', () => {
    const t = setup().t as unknown as Loose;
    expect(t('hi', { name: 'Ana' })).toBe('Hallo Ana, Ana!');
    expect(t('hi', {})).toBe('Hallo {{name}}, {{ name }}!');
    expect(t('hi', { name: 1.5 })).toBe('Hallo 1.5, 1.5!');
  });

  it('reads other namespaces by prefix, or as the default of a fixed t', () => {
    const i18n = setup();
    expect(i18n.t('calculator:reset')).toBe('Zurücksetzen');
    expect(i18n.fixedT('calculator')('errors.notANumber', { example: '1,5' })).toBe('Zum Beispiel 1,5');
    expect(i18n.fixedT('calculator')('translation:site.name')).toBe('Handy-Werkzeuge');
  });

  it('tells listeners about a language change, once', () => {
    const i18n = setup();
    const listener = vi.fn();
    const off = i18n.subscribe(listener);
    i18n.changeLanguage('de');
    expect(listener).not.toHaveBeenCalled();
    i18n.changeLanguage('en');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(i18n.language).toBe('en');
    expect(i18n.t('site.name')).toBe('Handy Tools');
    off();
    i18n.changeLanguage('de');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
