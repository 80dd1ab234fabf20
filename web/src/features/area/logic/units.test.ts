import { describe, expect, it } from 'vitest';
import { lengthUnits, type LengthUnit } from '../../../calculator/logic/length';
import { areaUnitIds, areaUnits, areaUnitSymbols, convertArea, isAreaUnit, squareOf } from './units';

/** |actual − expected| ≤ 1e-9 × |expected|. */
function expectRelative(actual: number, expected: number, tolerance = 1e-9) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

describe('area units', () => {
  it('are the doubles nearest the exact definitions', () => {
    // Each literal is the exact decimal square of the length definition; toBe checks that the
    // product in units.ts rounded to the same double as the literal.
    expect(areaUnits.mm2).toBe(0.000001);
    expect(areaUnits.cm2).toBe(0.0001);
    expect(areaUnits.m2).toBe(1);
    expect(areaUnits.km2).toBe(1_000_000);
    expect(areaUnits.ha).toBe(10_000);
    expect(areaUnits.in2).toBe(0.00064516);
    expect(areaUnits.ft2).toBe(0.09290304);
    expect(areaUnits.yd2).toBe(0.83612736);
    expect(43_560 * lengthUnits.ft * lengthUnits.ft).not.toBe(4046.8564224); // why exactProduct
    expect(areaUnits.acre).toBe(4046.8564224);
    expect(areaUnits.mi2).toBe(2589988.110336);
    expect(areaUnits.nmi2).toBe(3429904);
  });

  it('converts between every pair consistently', () => {
    const exact: [number, string, number, string][] = [
      [1, 'acre', 43_560, 'ft2'],
      [1, 'mi2', 640, 'acre'],
      [1, 'ha', 10_000, 'm2'],
      [1, 'km2', 100, 'ha'],
      [1, 'ft2', 144, 'in2'],
      [1, 'yd2', 9, 'ft2'],
      [1, 'acre', 4840, 'yd2'],
      [1, 'mi2', 27_878_400, 'ft2'],
      [1, 'm2', 10_000, 'cm2'],
      [1, 'cm2', 100, 'mm2'],
      [1, 'in2', 645.16, 'mm2'],
      [1, 'nmi2', 3.429904, 'km2'],
    ];
    for (const [a, from, b, to] of exact) {
      if (!isAreaUnit(from) || !isAreaUnit(to)) throw new Error(`${from} or ${to}`);
      expectRelative(convertArea(a, from, to), b);
      expectRelative(convertArea(b, to, from), a);
    }
  });

  it('converts to and from square metres for every unit', () => {
    for (const u of areaUnitIds) {
      expect(convertArea(1, u, 'm2')).toBe(areaUnits[u]);
      expectRelative(convertArea(areaUnits[u], 'm2', u), 1, 1e-15);
    }
    expectRelative(convertArea(4046.8564224, 'm2', 'acre'), 1, 1e-15);
  });

  it('leaves a value alone when the unit does not change', () => {
    expect(convertArea(8.749999999999998, 'ft2', 'ft2')).toBe(8.749999999999998);
  });

  it('maps every length unit to its square', () => {
    for (const u of Object.keys(lengthUnits) as LengthUnit[]) {
      const sq = squareOf(u);
      expect(areaUnitSymbols[sq]).toBe(`${u}²`);
      expectRelative(areaUnits[sq], lengthUnits[u] * lengthUnits[u], 1e-15);
    }
    expect(squareOf('ft')).toBe('ft2');
  });

  it('has a symbol for every unit and knows its ids', () => {
    expect(areaUnitIds).toEqual(Object.keys(areaUnitSymbols));
    expect(areaUnitSymbols.acre).toBe('ac');
    expect(isAreaUnit('ha')).toBe(true);
    expect(isAreaUnit('toString')).toBe(false);
    expect(isAreaUnit('rood')).toBe(false);
  });
});
