import { expect, test } from 'vitest';
import { formats } from './format';

test('days are UTC days, in the page language', () => {
  const en = formats('en');
  expect(en.day('2026-11-24')).toBe('Nov 24');
  expect(en.longDay('2026-11-01')).toBe('Sun, Nov 1, 2026');
  expect(formats('de').day('2026-11-24')).toBe('24. Nov.');
  expect(formats('ja').day('2026-11-24')).toBe('11月24日');
});

test('counts and shares', () => {
  expect(formats('en').count(30000)).toBe('30,000');
  expect(formats('de').count(30000)).toBe('30.000');
  expect(formats('en').share(0.0321)).toBe('3.2%');
  expect(formats('fr').share(0.5)).toMatch(/^50\s%$/); // a no-break space, whichever ICU picks
  expect(formats('en').share(Number.NaN)).toBe('0%');
});

test('browser languages by name, unknown and malformed tags left to the caller', () => {
  const en = formats('en');
  expect(en.language('de-DE')).toBe('German (Germany)');
  expect(en.language('pt-BR')).toBe('Brazilian Portuguese');
  expect(formats('ja').language('en')).toBe('英語');
  expect(en.language('not a tag')).toBeUndefined();
  expect(en.language('und')).toBeUndefined();
});
