import { describe, expect, it } from 'vitest';
import { distanceUnitIds, isDistanceUnit, racePreset, racePresets } from './distance';
import { convertLength } from '../../../calculator/logic/length';

describe('distance', () => {
  it('offers the calculator units from length.ts', () => {
    expect(distanceUnitIds).toEqual(['m', 'km', 'ft', 'yd', 'mi', 'nmi']);
    expect(isDistanceUnit('nmi')).toBe(true);
    expect(isDistanceUnit('mm')).toBe(false);
    expect(isDistanceUnit('includes')).toBe(false);
  });

  it('has the race distances in metres', () => {
    expect(racePresets.map((p) => [p.id, p.metres])).toEqual([
      ['5k', 5000],
      ['10k', 10000],
      ['half-marathon', 21097.5],
      ['marathon', 42195],
    ]);
    expect(racePreset('half-marathon')).toBe(racePreset('marathon')! / 2);
    expect(convertLength(racePreset('marathon')!, 'm', 'km')).toBe(42.195);
    expect(convertLength(racePreset('half-marathon')!, 'm', 'km')).toBe(21.0975);
    expect(racePreset('ultra')).toBeUndefined();
  });
});
