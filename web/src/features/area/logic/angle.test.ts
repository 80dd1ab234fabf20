import { describe, expect, it } from 'vitest';
import { cosine, inAngleRange, isAngleUnit, sine, turns, versine } from './angle';

describe('angles', () => {
  it('gives the common angles exactly in degrees', () => {
    expect(sine(30, 'deg')).toBe(0.5);
    expect(sine(90, 'deg')).toBe(1);
    expect(sine(150, 'deg')).toBe(0.5);
    expect(sine(180, 'deg')).toBe(0);
    expect(sine(210, 'deg')).toBe(-0.5);
    expect(sine(270, 'deg')).toBe(-1);
    expect(sine(-30, 'deg')).toBe(-0.5);
    expect(cosine(60, 'deg')).toBe(0.5);
    expect(cosine(90, 'deg')).toBe(0);
    expect(cosine(120, 'deg')).toBe(-0.5);
    expect(cosine(180, 'deg')).toBe(-1);
    expect(sine(45, 'deg')).toBe(cosine(45, 'deg'));
  });

  it('agrees with Math in radians and elsewhere', () => {
    expect(sine(1, 'rad')).toBe(Math.sin(1));
    expect(cosine(1, 'rad')).toBe(Math.cos(1));
    expect(sine(40, 'deg')).toBeCloseTo(Math.sin((40 * Math.PI) / 180), 15);
    expect(cosine(40, 'deg')).toBeCloseTo(Math.cos((40 * Math.PI) / 180), 15);
  });

  it('keeps 1 − cos x accurate for tiny angles', () => {
    // 1 − cos(1e-9) = 5e-19 to 16 digits; 1 - Math.cos(1e-9) is 0.
    expect(1 - Math.cos(1e-9)).toBe(0);
    expect(versine(1e-9, 'rad') / 5e-19).toBeCloseTo(1, 14);
    expect(versine(90, 'deg')).toBe(1);
    expect(versine(60, 'deg')).toBe(0.5);
    expect(versine(180, 'deg')).toBe(2);
  });

  it('measures turns', () => {
    expect(turns(90, 'deg')).toBe(0.25);
    expect(turns(Math.PI, 'rad')).toBe(0.5);
    expect(turns(360, 'deg')).toBe(1);
  });

  it('checks the allowed intervals', () => {
    expect(inAngleRange(179.9, 'deg', 'below180')).toBe(true);
    expect(inAngleRange(180, 'deg', 'below180')).toBe(false);
    expect(inAngleRange(0, 'deg', 'below180')).toBe(false);
    expect(inAngleRange(360, 'deg', 'upTo360')).toBe(true);
    expect(inAngleRange(360.0001, 'deg', 'upTo360')).toBe(false);
    expect(inAngleRange(-1, 'deg', 'upTo360')).toBe(false);
    expect(inAngleRange(3.14, 'rad', 'below180')).toBe(true);
    expect(inAngleRange(Math.PI, 'rad', 'below180')).toBe(false);
    expect(inAngleRange(2 * Math.PI, 'rad', 'upTo360')).toBe(true);
    expect(inAngleRange(6.3, 'rad', 'upTo360')).toBe(false);
  });

  it('knows its units', () => {
    expect(isAngleUnit('deg')).toBe(true);
    expect(isAngleUnit('grad')).toBe(false);
  });
});
