import { describe, expect, it } from 'vitest';
import { commonScale, decimalOf, exactProduct } from './decimal';

describe('decimals', () => {
  it('reads a number as the decimal it was written as', () => {
    expect(decimalOf(0.3048)).toEqual({ digits: 3048n, exponent: -4 });
    expect(decimalOf(1852)).toEqual({ digits: 1852n, exponent: 0 });
    expect(decimalOf(1e-7)).toEqual({ digits: 1n, exponent: -7 });
    expect(decimalOf(1.5e21)).toEqual({ digits: 15n, exponent: 20 });
    expect(decimalOf(0)).toEqual({ digits: 0n, exponent: 0 });
    expect(() => decimalOf(-1)).toThrow(RangeError);
    expect(() => decimalOf(Number.NaN)).toThrow(RangeError);
  });

  it('multiplies exactly and rounds once', () => {
    expect(43_560 * 0.3048 * 0.3048).toBe(4046.8564224000006);
    expect(exactProduct(43_560, 0.3048, 0.3048)).toBe(4046.8564224);
    expect(exactProduct(0.1, 3)).toBe(0.3);
    expect(0.1 * 3).not.toBe(0.3);
    expect(exactProduct()).toBe(1);
  });

  it('puts decimals over a common power of ten', () => {
    expect(commonScale(0.1, 0.2, 0.3)).toEqual([1n, 2n, 3n]);
    expect(commonScale(1.5, 20, 0.25)).toEqual([150n, 2000n, 25n]);
  });
});
