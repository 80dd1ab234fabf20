import { describe, expect, it } from 'vitest';
import {
  SPEED_OF_SOUND_SEA_LEVEL,
  convertSpeed,
  isSpeedUnit,
  speedIn,
  speedInEveryUnit,
  speedUnitIds,
  speedUnitSymbols,
  toMetresPerSecond,
} from './units';

describe('speed units', () => {
  it('are defined from the exact lengths', () => {
    expect(toMetresPerSecond(1, 'km-h')).toBe(1000 / 3600);
    expect(toMetresPerSecond(1, 'mph')).toBe(1609.344 / 3600);
    expect(toMetresPerSecond(1, 'm-s')).toBe(1);
    expect(toMetresPerSecond(1, 'ft-s')).toBe(0.3048);
    expect(toMetresPerSecond(1, 'kn')).toBe(1852 / 3600);
    expect(toMetresPerSecond(1, 'mach')).toBe(340.294);
    expect(SPEED_OF_SOUND_SEA_LEVEL).toBe(340.294);
  });

  it('converts typical speeds to m/s exactly', () => {
    expect(toMetresPerSecond(100, 'km-h')).toBe(1000 / 36);
    expect(toMetresPerSecond(60, 'mph')).toBe(26.8224);
    expect(toMetresPerSecond(36, 'km-h')).toBe(10);
    expect(toMetresPerSecond(10, 'ft-s')).toBe(3.048);
    expect(toMetresPerSecond(2, 'mach')).toBe(680.588);
    expect(toMetresPerSecond(18, 'kn')).toBe(9.26);
  });

  it('converts m/s into every unit', () => {
    expect(speedIn(10, 'km-h')).toBe(36);
    expect(speedIn(26.8224, 'mph')).toBe(60);
    expect(speedIn(7, 'm-s')).toBe(7);
    expect(speedIn(3.048, 'ft-s')).toBe(10);
    expect(speedIn(9.26, 'kn')).toBe(18);
    expect(speedIn(340.294, 'mach')).toBe(1);
    expect(speedIn(1, 'ft-s')).toBeCloseTo(1 / 0.3048, 14);
  });

  it('converts between units', () => {
    expect(convertSpeed(1, 'kn', 'km-h')).toBe(1.852);
    expect(convertSpeed(60, 'mph', 'km-h')).toBe(96.56064);
    expect(convertSpeed(1, 'mach', 'km-h')).toBe(1225.0584);
    expect(convertSpeed(100, 'km-h', 'mph')).toBeCloseTo(100000 / 1609.344, 12);
    expect(convertSpeed(42, 'ft-s', 'ft-s')).toBe(42);
    // 1 mph = 5280 ft per 3600 s = 22/15 ft/s.
    expect(convertSpeed(15, 'mph', 'ft-s')).toBeCloseTo(22, 12);
  });

  it('lists every unit once, in display order, with a standard symbol', () => {
    expect(speedUnitIds).toEqual(['km-h', 'mph', 'm-s', 'ft-s', 'kn', 'mach']);
    expect(speedUnitSymbols).toEqual({
      'km-h': 'km/h',
      mph: 'mph',
      'm-s': 'm/s',
      'ft-s': 'ft/s',
      kn: 'kn',
      mach: 'Ma',
    });
  });

  it('gives the result in every unit at once', () => {
    expect(speedInEveryUnit(10)).toEqual([
      { unit: 'km-h', value: 36 },
      { unit: 'mph', value: speedIn(10, 'mph') },
      { unit: 'm-s', value: 10 },
      { unit: 'ft-s', value: speedIn(10, 'ft-s') },
      { unit: 'kn', value: 36000 / 1852 },
      { unit: 'mach', value: 10 / 340.294 },
    ]);
    expect(speedInEveryUnit(10)[1].value).toBeCloseTo(36000 / 1609.344, 12);
  });

  it('knows its units and nothing else', () => {
    expect(isSpeedUnit('mach')).toBe(true);
    expect(isSpeedUnit('km-h')).toBe(true);
    expect(isSpeedUnit('km/h')).toBe(false);
    expect(isSpeedUnit('toString')).toBe(false);
  });
});
