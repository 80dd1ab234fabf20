import { describe, expect, it } from 'vitest';
import { convertLength, isLengthUnit, lengthUnits } from './length';

describe('length units', () => {
  it('uses the exact definitions', () => {
    expect(lengthUnits.in).toBe(0.0254);
    expect(lengthUnits.ft).toBe(0.3048);
    expect(lengthUnits.yd).toBe(0.9144);
    expect(lengthUnits.mi).toBe(1609.344);
    expect(lengthUnits.nmi).toBe(1852);
  });

  it('converts through metres', () => {
    expect(convertLength(1, 'mi', 'ft')).toBeCloseTo(5280, 9);
    expect(convertLength(1, 'yd', 'in')).toBeCloseTo(36, 12);
    expect(convertLength(2.5, 'km', 'm')).toBe(2500);
    expect(convertLength(7, 'cm', 'cm')).toBe(7);
  });

  it('knows its units', () => {
    expect(isLengthUnit('nmi')).toBe(true);
    expect(isLengthUnit('toString')).toBe(false);
    expect(isLengthUnit('furlong')).toBe(false);
  });
});
