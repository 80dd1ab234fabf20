import { describe, expect, it } from 'vitest';
import { prefsForm } from './prefsForm';
import { preferencesOf, readPreferences, themeOf } from './savedPreferences';

describe('preferences form', () => {
  it("starts from the calculators' defaults, this device's theme and this page's language", () => {
    expect(prefsForm({}, { theme: 'dark', language: 'de' })).toEqual({
      area: { unit: 'm', in: '', dp: '6' },
      speed: { vu: 'km-h', du: 'km', dp: '6' },
      theme: 'dark',
      language: 'de',
    });
  });

  it('shows what was saved, and drops what a calculator would not take', () => {
    const saved = readPreferences({
      theme: 'light',
      language: 'jp',
      tools: {
        'area-calculator': { unit: 'ft', in: 'acre', dp: '2' },
        'speed-calculator': { vu: 'min-km', du: 'parsec', dp: '99' },
      },
    });
    expect(prefsForm(saved, { theme: 'auto', language: 'en' })).toEqual({
      area: { unit: 'ft', in: 'acre', dp: '2' },
      speed: { vu: 'min-km', du: 'km', dp: '6' },
      theme: 'light',
      language: 'jp',
    });
    expect(prefsForm({ theme: 'sepia', language: 'xx' }, { theme: 'auto', language: 'fr' })).toMatchObject({ theme: 'auto', language: 'fr' });
  });

  it('goes back to the server as every setting, as strings', () => {
    const form = prefsForm({}, { theme: 'auto', language: 'en' });
    expect(preferencesOf(form)).toEqual({
      theme: 'auto',
      language: 'en',
      tools: { 'area-calculator': { unit: 'm', in: '', dp: '6' }, 'speed-calculator': { vu: 'km-h', du: 'km', dp: '6' } },
    });
  });
});

describe('saved preferences', () => {
  it('keep only the expected shape', () => {
    expect(readPreferences(null)).toEqual({});
    expect(readPreferences('dark')).toEqual({});
    expect(readPreferences({ theme: 3, language: 'de', tools: { 'area-calculator': { unit: 'cm', dp: 2 }, broken: 'x' } })).toEqual({
      language: 'de',
      tools: { 'area-calculator': { unit: 'cm' } },
    });
  });

  it('name a theme only when it is one of the choices', () => {
    expect(themeOf({ theme: 'dark' })).toBe('dark');
    expect(themeOf({ theme: 'sepia' })).toBeUndefined();
    expect(themeOf({})).toBeUndefined();
  });
});
