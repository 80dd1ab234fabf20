import { describe, expect, it } from 'vitest';
import { isTriangle, triangleArea } from './triangle';

/** Heron's formula as textbooks write it: the version that fails on needles. */
function naiveHeron(a: number, b: number, c: number): number {
  const s = (a + b + c) / 2;
  return Math.sqrt(s * (s - a) * (s - b) * (s - c));
}

/**
 * The area of the triangle whose sides are exactly these doubles, correct to the last bit or so:
 * 16A² = (a+b+c)(−a+b+c)(a−b+c)(a+b−c) in integers (each side × 2^SCALE is one), then an
 * integer square root with 64 guard bits.
 */
function exactArea(a: number, b: number, c: number): number {
  const SCALE = 200;
  const [A, B, C] = [a, b, c].map((x) => {
    const scaled = x * 2 ** SCALE;
    if (!Number.isInteger(scaled)) throw new Error(`${x} needs a larger scale`);
    return BigInt(scaled);
  });
  const sixteenASquared = (A + B + C) * (-A + B + C) * (A - B + C) * (A + B - C);
  const root = isqrt(sixteenASquared << 128n); // 4A × 2^(2·SCALE) × 2^64
  return Number(root) / 2 ** (2 * SCALE + 64) / 4;
}

function isqrt(n: bigint): bigint {
  let x = BigInt(Math.ceil(Math.sqrt(Number(n)))) + 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

function relativeError(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.abs(expected);
}

describe('triangle by three sides', () => {
  it('gives the 3-4-5 triangle its 6 exactly, in any order', () => {
    expect(triangleArea(3, 4, 5)).toBe(6);
    expect(triangleArea(5, 3, 4)).toBe(6);
    expect(triangleArea(4, 5, 3)).toBe(6);
  });

  it('gives known areas', () => {
    expect(triangleArea(2, 2, 2)).toBeCloseTo(Math.sqrt(3), 15);
    expect(triangleArea(13, 14, 15)).toBe(84);
    expect(triangleArea(0.3, 0.4, 0.5)).toBeCloseTo(0.06, 17);
  });

  it('keeps its digits on a needle where the textbook formula loses them', () => {
    // Two unit sides and one of 1e-15: s − a is all rounding error in the textbook formula.
    const [a, b, c] = [1, 1, 1e-15];
    const exact = exactArea(a, b, c);
    expect(exact).toBeCloseTo(5e-16, 30);
    expect(relativeError(triangleArea(a, b, c), exact)).toBeLessThan(1e-15);
    expect(relativeError(naiveHeron(a, b, c), exact)).toBeGreaterThan(0.1);
    // Kahan's own example, 29 µ-units against 100 000, which undid 10-digit calculators.
    const [d, e, f] = [100_000, 99_999.99979, 0.00029];
    expect(relativeError(triangleArea(d, e, f), exactArea(d, e, f))).toBeLessThan(1e-15);
    expect(relativeError(naiveHeron(d, e, f), exactArea(d, e, f))).toBeGreaterThan(1e-9);
  });

  it('matches the exact area on thin and flat triangles', () => {
    const cases: [number, number, number][] = [
      [1, 1, 1e-10],
      [1, 0.5 + 1e-12, 0.5],
      [12_345.678, 12_345.677, 0.0015],
      [1e-5, 1e-5, 1.999999e-5],
    ];
    for (const [a, b, c] of cases) {
      expect(relativeError(triangleArea(a, b, c), exactArea(a, b, c))).toBeLessThan(1e-13);
    }
  });

  it('neither overflows nor underflows before the area does', () => {
    expect(triangleArea(3e150, 4e150, 5e150) / 6e300).toBeCloseTo(1, 14);
    expect(triangleArea(3e-160, 4e-160, 5e-160) / 6e-320).toBeCloseTo(1, 2);
    expect(triangleArea(3e-150, 4e-150, 5e-150) / 6e-300).toBeCloseTo(1, 14);
  });

  it('rejects sides that break the triangle inequality, degenerate ones included', () => {
    expect(isTriangle(3, 4, 5)).toBe(true);
    expect(isTriangle(1, 1, 1.9999999999999998)).toBe(true);
    expect(isTriangle(1, 0.5000000000000001, 0.5)).toBe(true);
    expect(isTriangle(1, 2, 3)).toBe(false);
    expect(isTriangle(3, 1, 2)).toBe(false);
    // As doubles these are a valid, very flat triangle; as typed they are degenerate.
    expect(0.1 - (0.3 - 0.2)).toBeGreaterThan(0);
    expect(isTriangle(0.1, 0.2, 0.3)).toBe(false);
    expect(isTriangle(1.5, 2.5, 4)).toBe(false);
    expect(isTriangle(1, 1, 2)).toBe(false);
    expect(isTriangle(1, 2, 5)).toBe(false);
    expect(isTriangle(1e20, 1, 1e20 + 2e4)).toBe(false);
  });
});
