import { describe, expect, it } from 'vitest';
import { parseNumber } from '../../../lib/number';
import { formatHms, formatHours, hoursFromSeconds, parseTime, type ParseNumber } from './time';

// Simple stand-ins for the page's number parser: English (point) and German (comma).
const en: ParseNumber = (t) => (/^-?\d+(\.\d+)?$/.test(t) ? Number(t) : undefined);
const de: ParseNumber = (t) => (/^-?\d+(,\d+)?$/.test(t) ? Number(t.replace(',', '.')) : undefined);
// A lenient English parser that drops grouping commas, as Intl-based ones may.
const enGrouping: ParseNumber = (t) => {
  const n = Number(t.replace(/,/g, ''));
  return t.trim() !== '' && Number.isFinite(n) ? n : undefined;
};

const hms = (text: string, parse: ParseNumber = en) => parseTime(text, 'hms', parse);
const hours = (text: string, parse: ParseNumber = en) => parseTime(text, 'hours', parse);
const ok = (seconds: number) => ({ ok: true, seconds });
const err = (error: string) => ({ ok: false, error });

describe('parseTime, h:mm:ss', () => {
  it('reads hours, minutes and seconds', () => {
    expect(hms('1:02:03')).toEqual(ok(3723));
    expect(hms('0:25:00')).toEqual(ok(1500));
    expect(hms('2:00:35')).toEqual(ok(7235));
    expect(hms('  1:02:03  ')).toEqual(ok(3723));
    expect(hms('1 : 02 : 03')).toEqual(ok(3723));
  });

  it('reads mm:ss and plain seconds', () => {
    expect(hms('25:00')).toEqual(ok(1500));
    expect(hms('4:30')).toEqual(ok(270));
    expect(hms('45')).toEqual(ok(45));
    expect(hms('90')).toEqual(ok(90));
  });

  it('lets the leading field exceed its usual range', () => {
    expect(hms('30:00:00')).toEqual(ok(108000));
    expect(hms('100:00:00')).toEqual(ok(360000));
    expect(hms('90:00')).toEqual(ok(5400));
    expect(hms('3600')).toEqual(ok(3600));
  });

  it('reads fractional seconds with the page decimal separator', () => {
    expect(hms('1:02:03.5')).toEqual(ok(3723.5));
    expect(hms('1:02:03,5', de)).toEqual(ok(3723.5));
    expect(hms('0:09.58')).toEqual(ok(9.58));
    expect(hms('9,58', de)).toEqual(ok(9.58));
    expect(hms('1:02:03,5', en)).toEqual(err('notATime'));
    expect(hms('1:02:03.5', de)).toEqual(err('notATime'));
  });

  it('never takes a grouping comma for a decimal one', () => {
    expect(hms('1:02:03,5', enGrouping)).toEqual(err('notATime'));
    expect(hms('0:03,5', enGrouping)).toEqual(err('notATime'));
  });

  it('accepts unpadded fields', () => {
    expect(hms('1:2:3')).toEqual(ok(3723));
    expect(hms('0:0:1')).toEqual(ok(1));
  });

  it('rejects minutes or seconds of 60 and more after a larger field', () => {
    expect(hms('1:75:00')).toEqual(err('minutesTooLarge'));
    expect(hms('1:60:00')).toEqual(err('minutesTooLarge'));
    expect(hms('1:00:60')).toEqual(err('secondsTooLarge'));
    expect(hms('1:00:59.9999')).toEqual(ok(3659.9999));
    expect(hms('4:75')).toEqual(err('secondsTooLarge'));
    expect(hms('1:75:75')).toEqual(err('secondsTooLarge'));
  });

  it('rejects what is not a time', () => {
    expect(hms('')).toEqual(err('required'));
    expect(hms('   ')).toEqual(err('required'));
    for (const bad of [
      'abc',
      '1:2:3:4',
      ':30',
      '1:',
      '1::00',
      '1:0a:00',
      '1.5:00',
      '1:00:+5',
      '1:00:1e1',
      '1:00:.5',
      '1:00:5.',
      '1h30',
      '1:-5:00',
    ]) {
      expect(hms(bad), bad).toEqual(err('notATime'));
    }
  });

  it('rejects negative and zero durations', () => {
    expect(hms('-1:00:00')).toEqual(err('mustBePositive'));
    expect(hms('\u22125:00')).toEqual(err('mustBePositive'));
    expect(hms('-0:00')).toEqual(err('mustBePositive'));
    expect(hms('-30')).toEqual(err('mustBePositive'));
    expect(hms('-1:75:00')).toEqual(err('notATime'));
    expect(hms('0:00:00')).toEqual(err('zeroTime'));
    expect(hms('00:00')).toEqual(err('zeroTime'));
    expect(hms('0')).toEqual(err('zeroTime'));
    expect(hms('0,0', de)).toEqual(err('zeroTime'));
  });

  it('never returns Infinity', () => {
    expect(hms('9'.repeat(400) + ':00:00')).toEqual(err('notATime'));
    expect(hms('1e400', enGrouping)).toEqual(err('notATime'));
  });
});

describe('parseTime, decimal hours', () => {
  it('reads hours', () => {
    expect(hours('1.5')).toEqual(ok(5400));
    expect(hours('1,5', de)).toEqual(ok(5400));
    expect(hours('0.25')).toEqual(ok(900));
    expect(hours('36')).toEqual(ok(129600));
  });

  it('also accepts clock notation, which is never ambiguous', () => {
    expect(hours('1:30:00')).toEqual(ok(5400));
  });

  it('rejects the invalid', () => {
    expect(hours('')).toEqual(err('required'));
    expect(hours('x')).toEqual(err('notATime'));
    expect(hours('1,5')).toEqual(err('notATime'));
    expect(hours('-1.5')).toEqual(err('mustBePositive'));
    expect(hours('0')).toEqual(err('zeroTime'));
    expect(hours('0.0')).toEqual(err('zeroTime'));
    expect(hours('1e308', enGrouping)).toEqual(err('notATime'));
  });
});

describe('formatHms', () => {
  it('writes h:mm:ss', () => {
    expect(formatHms(3723)).toBe('1:02:03');
    expect(formatHms(1500)).toBe('0:25:00');
    expect(formatHms(7235)).toBe('2:00:35');
    expect(formatHms(108000)).toBe('30:00:00');
    expect(formatHms(0)).toBe('0:00:00');
  });

  it('keeps up to three decimals and drops trailing zeros', () => {
    expect(formatHms(3723.5)).toBe('1:02:03.5');
    expect(formatHms(9.58)).toBe('0:00:09.58');
    expect(formatHms(1.25)).toBe('0:00:01.25');
    expect(formatHms(1.0004)).toBe('0:00:01');
    expect(formatHms(1.0006)).toBe('0:00:01.001');
    expect(formatHms(2 / 3)).toBe('0:00:00.667');
    expect(formatHms(1.5, { maxDecimals: 0 })).toBe('0:00:02');
    expect(formatHms(1.25, { maxDecimals: 1 })).toBe('0:00:01.3');
  });

  it('carries rounding into minutes and hours', () => {
    expect(formatHms(59.9996)).toBe('0:01:00');
    expect(formatHms(3599.9996)).toBe('1:00:00');
    expect(formatHms(3599.9995)).toBe('1:00:00');
    expect(formatHms(3599.9994)).toBe('0:59:59.999');
    expect(formatHms(3599.6, { maxDecimals: 0 })).toBe('1:00:00');
    expect(formatHms(86399.99999)).toBe('24:00:00');
  });

  it('uses the page decimal separator', () => {
    expect(formatHms(3723.5, { decimalSeparator: ',' })).toBe('1:02:03,5');
  });

  it('can leave out a zero hours field, for paces', () => {
    expect(formatHms(300, { hours: 'auto' })).toBe('5:00');
    expect(formatHms(171.46581348501007, { hours: 'auto' })).toBe('2:51.466');
    expect(formatHms(59.9996, { hours: 'auto' })).toBe('1:00');
    expect(formatHms(3599.9996, { hours: 'auto' })).toBe('1:00:00');
    expect(formatHms(3723, { hours: 'auto' })).toBe('1:02:03');
  });

  it('round-trips what it parses', () => {
    for (const text of ['1:02:03.5', '0:25:00', '30:00:00', '0:00:09.58', '2:00:35']) {
      const parsed = hms(text);
      expect(parsed.ok && formatHms(parsed.seconds)).toBe(text);
    }
  });

  it('signs a negative duration and refuses what is not a number', () => {
    expect(formatHms(-90)).toBe('-0:01:30');
    expect(formatHms(-0.0001)).toBe('0:00:00');
    expect(() => formatHms(NaN)).toThrow(RangeError);
    expect(() => formatHms(Infinity)).toThrow(RangeError);
    expect(() => formatHms(1, { maxDecimals: 4 })).toThrow(RangeError);
    expect(() => formatHms(1, { maxDecimals: 1.5 })).toThrow(RangeError);
  });
});

describe('decimal hours', () => {
  it('converts and formats with the page formatter', () => {
    expect(hoursFromSeconds(5400)).toBe(1.5);
    expect(hoursFromSeconds(900)).toBe(0.25);
    expect(formatHours(5400, (n) => n.toLocaleString('de-DE'))).toBe('1,5');
    expect(formatHours(7235, (n) => n.toFixed(4))).toBe('2.0097');
  });
});

describe('parseTime with the site number parser', () => {
  const inLang =
    (lang: string): ParseNumber =>
    (t) => {
      const r = parseNumber(t, lang);
      return r.ok ? r.value : undefined;
    };

  it('reads the decimal separator of each language', () => {
    expect(parseTime('1:02:03,5', 'hms', inLang('de'))).toEqual(ok(3723.5));
    expect(parseTime('1:02:03.5', 'hms', inLang('en'))).toEqual(ok(3723.5));
    expect(parseTime('1,5', 'hours', inLang('fr'))).toEqual(ok(5400));
    expect(parseTime('1.5', 'hours', inLang('ja'))).toEqual(ok(5400));
  });

  it('does not read an English grouping comma as a decimal one', () => {
    expect(parseTime('1:02:03,5', 'hms', inLang('en'))).toEqual(err('notATime'));
    expect(parseTime('1,5', 'hours', inLang('en'))).toEqual(err('notATime'));
  });
});
