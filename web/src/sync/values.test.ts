import { describe, expect, it } from 'vitest';
import { fromFields, fromValue, toFields, toValue, type Plain } from './values';

describe('values', () => {
  it('encodes plain data in Firestore REST v1 JSON', () => {
    expect(toFields({ n: 3, d: 2.5, big: 2n ** 63n - 1n, s: 'a', b: true, z: null, when: new Date(Date.UTC(2026, 10, 23)), bytes: new Uint8Array([0, 255]), list: [1, 'x'], map: { k: -1 } })).toEqual({
      n: { integerValue: '3' },
      d: { doubleValue: 2.5 },
      big: { integerValue: '9223372036854775807' },
      s: { stringValue: 'a' },
      b: { booleanValue: true },
      z: { nullValue: null },
      when: { timestampValue: '2026-11-23T00:00:00.000Z' },
      bytes: { bytesValue: 'AP8=' },
      list: { arrayValue: { values: [{ integerValue: '1' }, { stringValue: 'x' }] } },
      map: { mapValue: { fields: { k: { integerValue: '-1' } } } },
    });
  });

  it('keeps doubles that JSON cannot hold as numbers, and -0 a double', () => {
    expect([NaN, Infinity, -Infinity, -0, 2 ** 53].map((n) => toValue(n))).toEqual([
      { doubleValue: 'NaN' },
      { doubleValue: 'Infinity' },
      { doubleValue: '-Infinity' },
      { doubleValue: -0 },
      { doubleValue: 2 ** 53 },
    ]);
  });

  it('round-trips', () => {
    const plain: { [key: string]: Plain } = { n: 3, d: 0.1, s: 'é', list: [[1], { a: null }], big: 2n ** 60n, nan: NaN, bytes: new Uint8Array([1, 2, 3]) };
    expect(fromFields(toFields(plain))).toEqual(plain);
    expect(fromValue({ mapValue: {} })).toEqual({});
    expect(fromValue({ arrayValue: {} })).toEqual([]);
  });

  it('refuses what a document cannot hold', () => {
    expect(() => toValue(undefined as unknown as Plain)).toThrow(TypeError);
    expect(() => toFields({ f: (() => 1) as unknown as Plain })).toThrow('function');
  });
});
