import { describe, expect, it } from 'vitest';
import { isPaceUnit, paceFromSpeed, paceInEveryUnit, paceUnitSymbols, speedFromPace } from './pace';
import { speedIn, toMetresPerSecond } from './units';

describe('pace', () => {
  it('is seconds per km or per mile', () => {
    expect(paceFromSpeed(toMetresPerSecond(12, 'km-h'), 'min-km')).toBe(300);
    // Two divisions by 1609.344 cannot both be exact in binary: 60 to the last ulp but one.
    expect(paceFromSpeed(toMetresPerSecond(60, 'mph'), 'min-mi')).toBeCloseTo(60, 12);
    expect(paceFromSpeed(toMetresPerSecond(10, 'km-h'), 'min-mi')).toBeCloseTo(579.36384, 10);
  });

  it('turns back into speed', () => {
    expect(speedIn(speedFromPace(300, 'min-km'), 'km-h')).toBe(12);
    expect(speedFromPace(270, 'min-km')).toBe(1000 / 270);
    expect(speedIn(speedFromPace(480, 'min-mi'), 'mph')).toBe(7.5);
    expect(speedFromPace(400, 'min-mi')).toBe(1609.344 / 400);
  });

  it('is the reciprocal of speed both ways', () => {
    for (const v of [0.5, 3.7, 12.5, 340.294]) {
      expect(speedFromPace(paceFromSpeed(v, 'min-km'), 'min-km')).toBeCloseTo(v, 12);
      expect(speedFromPace(paceFromSpeed(v, 'min-mi'), 'min-mi')).toBeCloseTo(v, 12);
    }
  });

  it('gives every pace unit at once', () => {
    expect(paceInEveryUnit(5)).toEqual([
      { unit: 'min-km', seconds: 200 },
      { unit: 'min-mi', seconds: 1609.344 / 5 },
    ]);
  });

  it('knows its units', () => {
    expect(paceUnitSymbols).toEqual({ 'min-km': 'min/km', 'min-mi': 'min/mi' });
    expect(isPaceUnit('min-mi')).toBe(true);
    expect(isPaceUnit('min-ft')).toBe(false);
    expect(isPaceUnit('hasOwnProperty')).toBe(false);
  });
});
