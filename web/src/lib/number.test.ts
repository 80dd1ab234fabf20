import { describe, expect, it } from 'vitest';
import { formatNumber, parseNumber } from './number';

const langs = ['en', 'de', 'fr', 'es', 'pt', 'zh-Hans', 'ja', 'ko'] as const;
const dotDecimal = ['en', 'zh-Hans', 'ja', 'ko'] as const;
const commaDecimal = ['de', 'fr', 'es', 'pt'] as const;

const NNBSP = '\u202f'; // what Intl puts between French thousands
const NBSP = '\u00a0';

type Case = [lang: string, text: string, value: number];
type FormatCase = [lang: string, value: number, text: string];

describe('what Intl gives us (the facts the expectations below rest on)', () => {
  it.each([
    ['en', '.', ','],
    ['de', ',', '.'],
    ['fr', ',', NNBSP],
    ['es', ',', '.'],
    ['pt', ',', '.'],
    ['zh-Hans', '.', ','],
    ['ja', '.', ','],
    ['ko', '.', ','],
  ])('%s writes %j for the decimal point and %j between thousands', (lang, decimal, group) => {
    const parts = new Intl.NumberFormat(lang).formatToParts(12345.6);
    expect(parts.find((p) => p.type === 'decimal')?.value).toBe(decimal);
    expect(parts.find((p) => p.type === 'group')?.value).toBe(group);
  });
});

describe('parseNumber', () => {
  it.each<Case>([
    // Plain numbers read the same everywhere.
    ...langs.flatMap((l): Case[] => [
      [l, '0', 0],
      [l, '42', 42],
      [l, '007', 7],
      [l, '-0', 0],
      [l, '+3', 3],
      [l, '-3', -3],
      [l, '\u22123', -3], // the true minus sign, as some locales and word processors write it
      [l, '  12 \t', 12],
      [l, '1e3', 1000],
      [l, '1E-3', 0.001],
      [l, '2e+2', 200],
      [l, '-1e-9', -1e-9],
      [l, '1 234', 1234],
      [l, `1${NBSP}234${NBSP}567`, 1234567],
      [l, `1${NNBSP}234`, 1234],
      [l, '１２３', 123], // full-width digits, as a Japanese or Chinese IME types them
      [l, '\u3000５\u3000', 5],
      [l, '－７', -7],
      [l, '1e-400', 0], // underflow, like any calculator
      [l, '1.79769E308', 1.79769e308],
    ]),
    // Languages with a decimal dot.
    ...dotDecimal.flatMap((l): Case[] => [
      [l, '1.5', 1.5],
      [l, '.5', 0.5],
      [l, '-.5', -0.5],
      [l, '1.', 1],
      [l, '3.14159', 3.14159],
      [l, '1,234', 1234],
      [l, '1,234.5', 1234.5],
      [l, '-1,234,567.891', -1234567.891],
      [l, '1234.5', 1234.5],
      [l, '1 234.5', 1234.5],
      [l, '1.5e3', 1500],
      [l, '1.5E-7', 1.5e-7],
      [l, '１２３．５', 123.5],
      [l, '１，２３４', 1234],
      [l, '１．５ｅ３', 1500],
      [l, '１。５', 1.5], // the ideographic full stop
    ]),
    // Languages with a decimal comma.
    ...commaDecimal.flatMap((l): Case[] => [
      [l, '1,5', 1.5],
      [l, ',5', 0.5],
      [l, '1,', 1],
      [l, '1,000', 1], // the comma is the decimal point, even before three digits
      [l, '-1,25', -1.25],
      [l, '1234,5', 1234.5],
      [l, '1 234,5', 1234.5],
      [l, `1${NNBSP}234,5`, 1234.5],
      [l, `1${NBSP}234,5`, 1234.5],
      [l, '1.234,5', 1234.5],
      [l, '-1.234.567,891', -1234567.891],
      [l, '1,5e3', 1500],
      [l, '1,5E-7', 1.5e-7],
      [l, '１２３，５', 123.5],
      // The dot: thousands where it can be, else a decimal point pasted from English.
      [l, '1.500', 1500],
      [l, '12.345', 12345],
      [l, '1.234.567', 1234567],
      [l, '1.5', 1.5],
      [l, '1.50', 1.5],
      [l, '1.5000', 1.5],
      [l, '0.500', 0.5],
      [l, '.500', 0.5],
      [l, '1234.567', 1234.567],
      [l, '3.14159', 3.14159],
      [l, '1.', 1],
      [l, '1 234.5', 1234.5],
      [l, '1.500e3', 1500], // no thousands in a mantissa, so the dot is a decimal point
      [l, '１．５', 1.5],
    ]),
  ])('%s reads %j as %d', (lang, text, value) => {
    expect(parseNumber(text, lang)).toEqual({ ok: true, value });
  });

  it.each(langs)('%s reads blank input as empty, not as 0', (lang) => {
    for (const text of ['', '   ', '\t\n', '\u3000', NNBSP]) {
      expect(parseNumber(text, lang)).toEqual({ ok: false, error: 'empty' });
    }
  });

  it.each([
    ...langs.flatMap((l) =>
      [
        'abc',
        '1e',
        '1e+',
        'e5',
        '1e5e5',
        '1e1.5',
        '--1',
        '+-1',
        '- 1',
        '1-',
        '-',
        '+',
        '.',
        ',',
        'NaN',
        'Infinity',
        '-Infinity',
        '0x10',
        '0b1',
        '1_000',
        '12abc',
        '1e400',
        '-1e400',
        '1 2',
        '12 34',
        '1  234',
        '1 234 56',
        '1.2.3',
        '1,2,3,4',
        '1.234 567',
        '１２ａ',
      ].map((text) => [l, text] as const),
    ),
    ...dotDecimal.flatMap((l) =>
      [
        '12,34', // misplaced groups
        '1,5', // a comma is never a decimal point here
        '0,5',
        '1,23',
        '1,2345',
        '0,123', // a group cannot follow a leading 0
        '1,234,5',
        '1234,567',
        '1,',
        ',5',
        '1.234,5', // a German number in an English field
        '1,5e3', // no thousands in a mantissa
        '1,234e3',
      ].map((text) => [l, text] as const),
    ),
    ...commaDecimal.flatMap((l) =>
      [
        '1,2,3',
        '1,5,0',
        '1.234.5',
        '1.23.456',
        '1,234.5', // a dot after the decimal comma: rejected rather than guessed
        '1.5,5',
        '12.34,5',
        '1.234,5e3',
        '1 234.567,5',
      ].map((text) => [l, text] as const),
    ),
  ])('%s rejects %j', (lang, text) => {
    expect(parseNumber(text, lang)).toEqual({ ok: false, error: 'notANumber' });
  });
});

describe('formatNumber', () => {
  it.each<FormatCase>([
    ['en', 1234567.891, '1,234,567.891'],
    ['de', 1234567.891, '1.234.567,891'],
    ['fr', 1234567.891, `1${NNBSP}234${NNBSP}567,891`],
    ['es', 1234567.891, '1.234.567,891'],
    ['pt', 1234567.891, '1.234.567,891'],
    ['zh-Hans', 1234567.891, '1,234,567.891'],
    ['ja', 1234567.891, '1,234,567.891'],
    ['ko', 1234567.891, '1,234,567.891'],
    ['en', -1234.5, '-1,234.5'],
    ['de', -1234.5, '-1.234,5'],
    ['fr', -1234.5, `-1${NNBSP}234,5`],
    ['es', -1234.5, '-1234,5'], // Spanish leaves four-digit numbers ungrouped
    ['es', -12345.5, '-12.345,5'],
    ['pt', -1234.5, '-1.234,5'],
    ['zh-Hans', -1234.5, '-1,234.5'],
    ['ja', -1234.5, '-1,234.5'],
    ['ko', -1234.5, '-1,234.5'],
    ...langs.flatMap((l): FormatCase[] => [
      [l, 0, '0'],
      [l, -0, '0'],
      [l, 42, '42'],
      [l, 100, '100'],
    ]),
    ...dotDecimal.flatMap((l): FormatCase[] => [
      [l, 8.749999999999998, '8.75'],
      [l, 0.1 + 0.2, '0.3'],
      [l, 1 / 3, '0.333333'],
      [l, 2 / 3, '0.666667'],
      [l, -2 / 3, '-0.666667'],
      [l, 0.000001, '0.000001'],
      [l, 0.0000015, '0.000002'],
      [l, 0.00000123456789, '0.000001'],
      [l, 0.0000009999, '9.999E-7'],
      [l, 1.23456789e-9, '1.23457E-9'],
      [l, -1.23456789e-9, '-1.23457E-9'],
      [l, 5e-324, '5E-324'], // Intl shows the shortest decimal that reads back as the same double
      [l, 999999999999999, '999,999,999,999,999'],
      [l, 1e15, '1E15'],
      [l, 1.5e20, '1.5E20'],
      [l, -1.23456789e20, '-1.23457E20'],
      [l, Number.MAX_VALUE, '1.79769E308'],
    ]),
    ...commaDecimal.flatMap((l): FormatCase[] => [
      [l, 8.749999999999998, '8,75'],
      [l, 0.1 + 0.2, '0,3'],
      [l, 1 / 3, '0,333333'],
      [l, -2 / 3, '-0,666667'],
      [l, 0.000001, '0,000001'],
      [l, 0.0000009999, '9,999E-7'],
      [l, 1.23456789e-9, '1,23457E-9'],
      [l, -1.23456789e-9, '-1,23457E-9'],
      [l, 1e15, '1E15'],
      [l, 1.5e20, '1,5E20'],
      [l, -1.23456789e20, '-1,23457E20'],
      [l, Number.MAX_VALUE, '1,79769E308'],
    ]),
    ['fr', 999999999999999, `999${NNBSP}999${NNBSP}999${NNBSP}999${NNBSP}999`],
    ['de', 999999999999999, '999.999.999.999.999'],
  ])('%s shows %d as %j', (lang, value, text) => {
    expect(formatNumber(value, lang)).toBe(text);
  });

  it.each([
    [8.749999999999998, 2, '8.75'],
    [8.745, 2, '8.75'], // 8.745 is 8.74499999…; Intl rounds the decimal it shows, as we want
    [1234.5678, 0, '1,235'],
    [0.5, 0, '5E-1'], // below 10^-0: scientific rather than a rounded "1" or "0"
    [0.004, 2, '4E-3'],
    [0.01, 2, '0.01'],
    [Math.PI, 10, '3.1415926536'],
    [1.2345678901234e-12, 10, '1.23456789E-12'], // scientific keeps as many digits as asked
    [1.2345678901234e-12, 3, '1.23457E-12'],
    [1e-20, 20, '0.00000000000000000001'],
  ])('shows %d with at most %d decimals as %j', (value, maxDecimals, text) => {
    expect(formatNumber(value, 'en', { maxDecimals })).toBe(text);
  });

  it.each([NaN, Infinity, -Infinity])('refuses %d with a RangeError', (value) => {
    expect(() => formatNumber(value, 'en')).toThrow(RangeError);
  });

  it.each([-1, 1.5, 21, NaN])('refuses maxDecimals %d with a RangeError', (maxDecimals) => {
    expect(() => formatNumber(1, 'en', { maxDecimals })).toThrow(RangeError);
  });
});

describe('round trips: what we show, a visitor can paste back', () => {
  // [value, what it reads back as after rounding for display]
  const values: readonly (readonly [number, number])[] = [
    [0, 0],
    [-0, 0],
    [1, 1],
    [-1, -1],
    [0.5, 0.5],
    [1.5, 1.5],
    [999, 999],
    [1000, 1000],
    [1500, 1500],
    [1234.5, 1234.5],
    [12345.678, 12345.678],
    [-1234567.891, -1234567.891],
    [8.749999999999998, 8.75],
    [0.1 + 0.2, 0.3],
    [1 / 3, 0.333333],
    [-2 / 3, -0.666667],
    [0.000001, 0.000001],
    [123456789012345.6, 123456789012345.6],
    [999999999999999, 999999999999999],
    [1e15, 1e15],
    [1.5e20, 1.5e20],
    [-1.23456789e20, -1.23457e20],
    [1.23456789e-9, 1.23457e-9],
    [-7e-7, -7e-7],
    [Number.MAX_VALUE, 1.79769e308],
    [5e-324, 5e-324],
  ];

  it.each(langs.flatMap((l) => values.map(([v, r]) => [l, v, r] as const)))(
    '%s: %d is shown and read back as %d',
    (lang, value, rounded) => {
      expect(parseNumber(formatNumber(value, lang), lang)).toEqual({ ok: true, value: rounded });
    },
  );
});
