import { describe, expect, test } from 'vitest';
import { daysOf, lastDays, parseDay, presetOf, rangeFromSearch, rangeProblem, searchOf, spanOf } from './range';

const today = '2026-11-24';

describe('parseDay', () => {
  test('takes real days only', () => {
    expect(parseDay('2026-11-24')).toBe(Date.UTC(2026, 10, 24));
    expect(parseDay('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '26-11-24', '2026-11-24T00:00', '', 'today']) {
      expect(parseDay(bad), bad).toBeNaN();
    }
  });
});

describe('ranges', () => {
  test('the last n days end today, both ends included', () => {
    expect(lastDays(30, today)).toEqual({ from: '2026-10-26', to: today });
    expect(spanOf(lastDays(30, today))).toBe(30);
    expect(lastDays(1, today)).toEqual({ from: today, to: today });
    expect(lastDays(365, '2025-03-01').from).toBe('2024-03-02'); // across a leap day
  });

  test('every day of a range, across a month and a DST change', () => {
    expect(daysOf({ from: '2026-10-30', to: '2026-11-02' })).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
    expect(daysOf(lastDays(400, today))).toHaveLength(400);
  });

  test('problems are named in the order the server checks them', () => {
    expect(rangeProblem({ from: '2026-11-01', to: today }, today)).toBeUndefined();
    expect(rangeProblem({ from: 'x', to: 'y' }, today)).toBe('invalidFrom');
    expect(rangeProblem({ from: '2026-11-01', to: 'y' }, today)).toBe('invalidTo');
    expect(rangeProblem({ from: '2026-11-02', to: '2026-11-01' }, today)).toBe('fromAfterTo');
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-25' }, today)).toBe('future');
    expect(rangeProblem(lastDays(400, today), today)).toBeUndefined();
    expect(rangeProblem(lastDays(401, today), today)).toBe('tooLong');
  });
});

describe('the query string', () => {
  test('an address without a range is the default 30 days', () => {
    expect(rangeFromSearch('', today)).toEqual(lastDays(30, today));
    expect(searchOf(lastDays(30, today), today)).toBe('');
  });

  test('a range round-trips', () => {
    const r = { from: '2026-01-01', to: '2026-03-31' };
    expect(searchOf(r, today)).toBe('?from=2026-01-01&to=2026-03-31');
    expect(rangeFromSearch(searchOf(r, today), today)).toEqual(r);
  });

  test('a missing end is filled in as the server would', () => {
    expect(rangeFromSearch('?to=2026-06-30', today)).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(rangeFromSearch('?from=2026-11-01', today)).toEqual({ from: '2026-11-01', to: today });
  });

  test('an invalid range falls back to the default', () => {
    for (const s of ['?from=2026-02-30', '?from=2026-11-10&to=2026-11-01', '?from=2020-01-01', '?to=2099-01-01']) {
      expect(rangeFromSearch(s, today), s).toEqual(lastDays(30, today));
    }
  });

  test('presets are recognised', () => {
    expect(presetOf(lastDays(7, today), today)).toBe(7);
    expect(presetOf(lastDays(365, today), today)).toBe(365);
    expect(presetOf(lastDays(12, today), today)).toBeUndefined();
    expect(presetOf({ from: '2026-10-26', to: '2026-11-23' }, today)).toBeUndefined();
  });
});
