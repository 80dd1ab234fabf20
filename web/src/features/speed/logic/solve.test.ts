import { describe, expect, it } from 'vitest';
import { formatHms } from './time';
import { paceFromSpeed, speedFromPace } from './pace';
import { solve, validateQuantity, type QuantityFormatter } from './solve';
import { speedIn, toMetresPerSecond } from './units';

// The visitor's units in these tests: km/h, km, h:mm:ss.
const fmt: QuantityFormatter = (q, value) => {
  switch (q) {
    case 'speed':
      return `${speedIn(value, 'km-h')} km/h`;
    case 'distance':
      return `${value / 1000} km`;
    case 'time':
      return formatHms(value);
  }
};

describe('solve', () => {
  it('finds the speed: a 5 km in 25:00 is 12 km/h, 5:00 per km', () => {
    const r = solve({ distance: 5000, time: 1500 });
    expect(r).toMatchObject({ ok: true, target: 'speed', distance: 5000, time: 1500 });
    if (!r.ok) return;
    expect(r.speed).toBe(10 / 3);
    expect(speedIn(r.speed, 'km-h')).toBe(12);
    expect(paceFromSpeed(r.speed, 'min-km')).toBe(300);
    expect(formatHms(paceFromSpeed(r.speed, 'min-km'), { hours: 'auto' })).toBe('5:00');
    expect(r.formula).toBe('v = d / t');
    expect(r.substituted(fmt)).toBe('12 km/h = 5 km / 0:25:00');
  });

  it('finds the pace of a marathon in 2:00:35', () => {
    const r = solve({ distance: 42195, time: 7235 });
    if (!r.ok) throw new Error('unsolved');
    expect(r.speed).toBe(42195 / 7235);
    expect(paceFromSpeed(r.speed, 'min-km')).toBeCloseTo(7235000 / 42195, 12);
    expect(formatHms(paceFromSpeed(r.speed, 'min-km'), { hours: 'auto' })).toBe('2:51.466');
    expect(paceFromSpeed(r.speed, 'min-mi')).toBeCloseTo((7235 * 1609.344) / 42195, 12);
    expect(formatHms(paceFromSpeed(r.speed, 'min-mi'), { hours: 'auto' })).toBe('4:35.947');
  });

  it('finds the time: 10 km at 4:30 per km is 45:00', () => {
    const r = solve({ distance: 10000, speed: speedFromPace(270, 'min-km') });
    expect(r).toMatchObject({ ok: true, target: 'time', time: 2700 });
    if (!r.ok) return;
    expect(r.formula).toBe('t = d / v');
    expect(formatHms(r.time)).toBe('0:45:00');
  });

  it('finds the time: 100 km at 80 km/h is 1:15:00', () => {
    const r = solve({ distance: 100000, speed: toMetresPerSecond(80, 'km-h') });
    if (!r.ok) throw new Error('unsolved');
    expect(r.time).toBe(4500);
    expect(r.substituted(fmt)).toBe('1:15:00 = 100 km / 80 km/h');
  });

  it('finds the distance: 12 km/h for 25:00 is 5 km', () => {
    const r = solve({ speed: toMetresPerSecond(12, 'km-h'), time: 1500 });
    expect(r).toMatchObject({ ok: true, target: 'distance', distance: 5000 });
    if (!r.ok) return;
    expect(r.formula).toBe('d = v × t');
    expect(r.substituted(fmt)).toBe('5 km = 12 km/h × 0:25:00');
  });

  it('finds the distance: 60 mph for 1.5 h is 90 mi', () => {
    const r = solve({ speed: toMetresPerSecond(60, 'mph'), time: 5400 });
    if (!r.ok) throw new Error('unsolved');
    expect(r.distance).toBe(90 * 1609.344);
  });

  it('recomputes the chosen target when all three are filled in', () => {
    const input = { speed: 99, distance: 5000, time: 1500 };
    expect(solve({ ...input, target: 'speed' })).toMatchObject({ ok: true, speed: 10 / 3 });
    expect(solve({ ...input, target: 'distance' })).toMatchObject({ ok: true, distance: 148500 });
    expect(solve({ ...input, target: 'time' })).toMatchObject({ ok: true, time: 5000 / 99 });
  });

  it('ignores whatever is in the target field, even when it is invalid', () => {
    expect(solve({ speed: -1, distance: 5000, time: 1500, target: 'speed' })).toMatchObject({
      ok: true,
      speed: 10 / 3,
    });
    expect(solve({ distance: 5000, time: 1500, target: 'speed' })).toMatchObject({ ok: true });
  });

  it('asks which to compute when all three are given without a target', () => {
    expect(solve({ speed: 3, distance: 5000, time: 1500 })).toEqual({
      ok: false,
      fieldErrors: {},
      formError: 'chooseTarget',
    });
  });

  it('needs two values', () => {
    expect(solve({})).toEqual({ ok: false, fieldErrors: {}, formError: 'needTwo' });
    expect(solve({ time: 1500 })).toEqual({ ok: false, fieldErrors: {}, formError: 'needTwo' });
    expect(solve({ speed: -2 })).toEqual({
      ok: false,
      fieldErrors: { speed: 'mustBePositive' },
      formError: 'needTwo',
    });
  });

  it('marks the missing fields as required when the target is chosen', () => {
    expect(solve({ target: 'speed' })).toEqual({
      ok: false,
      fieldErrors: { distance: 'required', time: 'required' },
    });
    expect(solve({ speed: 3, target: 'distance' })).toEqual({
      ok: false,
      fieldErrors: { time: 'required' },
    });
  });

  it('rejects negative, zero and non-numeric values, all at once', () => {
    expect(solve({ distance: -5000, time: 0 })).toEqual({
      ok: false,
      fieldErrors: { distance: 'mustBePositive', time: 'zeroTime' },
    });
    expect(solve({ speed: 0, time: -1 })).toEqual({
      ok: false,
      fieldErrors: { speed: 'mustBePositive', time: 'mustBePositive' },
    });
    expect(solve({ distance: 0, speed: NaN })).toEqual({
      ok: false,
      fieldErrors: { distance: 'mustBePositive', speed: 'notANumber' },
    });
    expect(solve({ distance: Infinity, time: 10 })).toEqual({
      ok: false,
      fieldErrors: { distance: 'notANumber' },
    });
  });

  it('refuses results a double cannot hold instead of showing Infinity or 0', () => {
    expect(solve({ distance: 1e300, speed: 1e-300 })).toEqual({
      ok: false,
      fieldErrors: {},
      formError: 'outOfRange',
    });
    expect(solve({ distance: 1e-300, time: 1e300 })).toMatchObject({ formError: 'outOfRange' });
    expect(solve({ speed: 1e200, time: 1e200 })).toMatchObject({ formError: 'outOfRange' });
  });
});

describe('validateQuantity', () => {
  it('accepts positive finite values', () => {
    expect(validateQuantity('speed', 1e-9)).toBeUndefined();
    expect(validateQuantity('time', 0.001)).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(validateQuantity('time', 0)).toBe('zeroTime');
    expect(validateQuantity('time', -0)).toBe('zeroTime');
    expect(validateQuantity('distance', 0)).toBe('mustBePositive');
    expect(validateQuantity('speed', -3)).toBe('mustBePositive');
    expect(validateQuantity('speed', -Infinity)).toBe('notANumber');
    expect(validateQuantity('speed', NaN)).toBe('notANumber');
  });
});
