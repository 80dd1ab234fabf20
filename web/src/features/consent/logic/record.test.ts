import { describe, expect, it } from 'vitest';
import { consentVersion, currentRecord, maxAgeDays, newRecord, startOf } from './record';

const now = new Date('2026-11-23T10:00:00.000Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000).toISOString();
const text = (value: object) => JSON.stringify(value);

describe('newRecord', () => {
  it('holds the choice with its date and version', () => {
    expect(JSON.stringify(newRecord('accepted', now))).toBe('{"choice":"accepted","date":"2026-11-23T10:00:00.000Z","version":1}');
    expect(newRecord('rejected', now)).toEqual({ choice: 'rejected', date: '2026-11-23T10:00:00.000Z', version: consentVersion });
  });

  it('reads back as stored', () => {
    expect(currentRecord(JSON.stringify(newRecord('rejected', now)), now)).toEqual(newRecord('rejected', now));
  });
});

describe('currentRecord', () => {
  it('keeps an answer for six months (183 days)', () => {
    expect(maxAgeDays).toBe(183);
    expect(currentRecord(text({ choice: 'accepted', date: daysAgo(0), version: 1 }), now)?.choice).toBe('accepted');
    expect(currentRecord(text({ choice: 'accepted', date: daysAgo(182.9), version: 1 }), now)?.choice).toBe('accepted');
    expect(currentRecord(text({ choice: 'rejected', date: daysAgo(183), version: 1 }), now)).toBeUndefined();
    expect(currentRecord(text({ choice: 'accepted', date: daysAgo(400), version: 1 }), now)).toBeUndefined();
  });

  it('asks again for nothing, or for what does not parse', () => {
    for (const stored of [null, undefined, '', 'accepted', '{', 'null', '[]', '"accepted"', '42']) {
      expect(currentRecord(stored, now), String(stored)).toBeUndefined();
    }
  });

  it('asks again for another version, choice or date', () => {
    const bad = [
      { choice: 'accepted', date: daysAgo(1), version: 2 },
      { choice: 'accepted', date: daysAgo(1), version: '1' },
      { choice: 'accepted', date: daysAgo(1) },
      { choice: 'yes', date: daysAgo(1), version: 1 },
      { choice: 'accepted', version: 1 },
      { choice: 'accepted', date: 'yesterday', version: 1 },
      { choice: 'accepted', date: 1732356000000, version: 1 },
      { choice: 'accepted', date: daysAgo(-2), version: 1 }, // from the future: a clock set wrong
    ];
    for (const value of bad) expect(currentRecord(text(value), now), text(value)).toBeUndefined();
  });

  it('tolerates a clock a little behind', () => {
    expect(currentRecord(text({ choice: 'accepted', date: daysAgo(-0.5), version: 1 }), now)?.choice).toBe('accepted');
  });
});

describe('startOf', () => {
  const accepted = { choice: 'accepted', date: daysAgo(1), version: 1 } as const;
  const rejected = { choice: 'rejected', date: daysAgo(1), version: 1 } as const;

  it('loads after an acceptance, nothing after a rejection, and asks without an answer', () => {
    expect(startOf(accepted, false)).toBe('load');
    expect(startOf(rejected, false)).toBe('none');
    expect(startOf(undefined, false)).toBe('ask');
  });

  it('takes Global Privacy Control for a rejection, but an explicit acceptance still counts', () => {
    expect(startOf(undefined, true)).toBe('none');
    expect(startOf(rejected, true)).toBe('none');
    expect(startOf(accepted, true)).toBe('load');
  });
});
