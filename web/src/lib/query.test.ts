import { describe, expect, it } from 'vitest';
import { buildSearch, fromParam, pick, toParam } from './query';
import { inputText, parseNumber } from './number';

describe('query string fields', () => {
  it('writes numbers in JavaScript notation, whatever the language', () => {
    expect(toParam('1,5', 'de')).toBe('1.5');
    expect(toParam('1.500', 'de')).toBe('1500');
    expect(toParam('1,500', 'en')).toBe('1500');
    expect(toParam('0,00000025', 'fr')).toBe('2.5e-7');
    expect(toParam('１２', 'ja')).toBe('12');
  });

  it('keeps text that is not a number as typed, so a reload loses nothing', () => {
    expect(toParam('1,5', 'en')).toBe('1,5');
    expect(toParam(' abc ', 'en')).toBe('abc');
    expect(toParam('', 'de')).toBe('');
  });

  it('shows numbers in the language of the page', () => {
    expect(fromParam('1.5', 'de')).toBe('1,5');
    expect(fromParam('1.5', 'en')).toBe('1.5');
    expect(fromParam('2.5e-7', 'fr')).toBe('2,5e-7');
    expect(fromParam('1e+21', 'ja')).toBe('1e+21');
    expect(fromParam('1,5', 'en')).toBe('1,5');
    expect(fromParam('abc', 'de')).toBe('abc');
  });

  it('round-trips every value exactly through the field text', () => {
    for (const lang of ['en', 'de', 'fr', 'es', 'pt', 'zh-CN', 'ja', 'ko']) {
      for (const v of [0.1, 1 / 3, 12.5, 1234567.891, 2.5e-7, 1e21, 4046.8564224]) {
        const text = fromParam(String(v), lang);
        expect(parseNumber(text, lang), `${lang} ${v}`).toEqual({ ok: true, value: v });
        expect(toParam(text, lang)).toBe(String(v));
        expect(inputText(v, lang)).toBe(text);
      }
    }
  });

  it('picks only allowed values', () => {
    const p = new URLSearchParams('u=cm&bad=zz');
    expect(pick(p, 'u', ['m', 'cm'], 'm')).toBe('cm');
    expect(pick(p, 'bad', ['m', 'cm'], 'm')).toBe('m');
    expect(pick(p, 'none', ['m', 'cm'], 'm')).toBe('m');
  });

  it('builds a query string without empty or default values', () => {
    expect(buildSearch([['shape', 'circle', 'square'], ['r', '5'], ['u', 'm', 'm'], ['x', '']])).toBe('?shape=circle&r=5');
    expect(buildSearch([['u', 'm', 'm']])).toBe('');
    expect(buildSearch([['v', '0:25:00']])).toBe('?v=0%3A25%3A00');
  });
});
