import { describe, expect, it } from 'vitest';
import { averageOverLegs } from './legs';
import { speedIn, toMetresPerSecond } from './units';

const kmh = (v: number) => toMetresPerSecond(v, 'km-h');

describe('averageOverLegs', () => {
  it('60 km at 60 km/h then 60 km at 30 km/h averages 40 km/h, not 45', () => {
    const r = averageOverLegs([
      { distance: 60000, speed: kmh(60) },
      { distance: 60000, speed: kmh(30) },
    ]);
    if (!r.ok) throw new Error('unsolved');
    // 60 km/h is 16.666… m/s, which a double cannot hold: times are exact to the last ulp or two.
    expect(r.legs.map((l) => [l.distance, l.speed])).toEqual([
      [60000, kmh(60)],
      [60000, kmh(30)],
    ]);
    expect(r.legs[0].time).toBeCloseTo(3600, 10);
    expect(r.legs[1].time).toBeCloseTo(7200, 10);
    expect(r.totalDistance).toBe(120000);
    expect(r.totalTime).toBeCloseTo(10800, 10);
    expect(speedIn(r.averageSpeed, 'km-h')).toBeCloseTo(40, 12);
    expect(speedIn(r.meanOfSpeeds, 'km-h')).toBe(45);
    expect(speedIn(r.harmonicMeanOfSpeeds, 'km-h')).toBeCloseTo(40, 12);
    expect(r.equalDistances).toBe(true);
    expect(r.equalTimes).toBe(false);
  });

  it('is exact when the legs are given as distance and time', () => {
    const r = averageOverLegs([
      { distance: 60000, time: 3600 },
      { distance: 60000, time: 7200 },
    ]);
    expect(r).toMatchObject({ ok: true, totalDistance: 120000, totalTime: 10800 });
    if (!r.ok) return;
    expect(speedIn(r.averageSpeed, 'km-h')).toBe(40);
    expect(speedIn(r.meanOfSpeeds, 'km-h')).toBe(45);
  });

  it('takes legs given as distance and time, or speed and time', () => {
    const r = averageOverLegs([
      { distance: 5000, time: 1500 },
      { speed: kmh(36), time: 600 },
    ]);
    if (!r.ok) throw new Error('unsolved');
    expect(r.legs).toEqual([
      { distance: 5000, speed: 10 / 3, time: 1500 },
      { distance: 6000, speed: 10, time: 600 },
    ]);
    expect(r.totalDistance).toBe(11000);
    expect(r.totalTime).toBe(2100);
    expect(r.averageSpeed).toBe(11000 / 2100);
    expect(r.meanOfSpeeds).toBeCloseTo(20 / 3, 14);
    expect(r.harmonicMeanOfSpeeds).toBeCloseTo(2 / (0.3 + 0.1), 14);
    expect(r.equalDistances).toBe(false);
    expect(r.equalTimes).toBe(false);
  });

  it('agrees with the mean of speeds when every leg lasts as long', () => {
    const r = averageOverLegs([
      { speed: kmh(60), time: 3600 },
      { speed: kmh(30), time: 3600 },
    ]);
    if (!r.ok) throw new Error('unsolved');
    expect(r.equalTimes).toBe(true);
    expect(r.equalDistances).toBe(false);
    expect(r.totalDistance).toBeCloseTo(90000, 10);
    expect(speedIn(r.averageSpeed, 'km-h')).toBeCloseTo(45, 12);
    expect(speedIn(r.meanOfSpeeds, 'km-h')).toBe(45);
  });

  it('sees equal distances through rounding of derived ones', () => {
    const r = averageOverLegs([
      { distance: 1000, time: 3 },
      { speed: 1000 / 7, time: 7 },
    ]);
    if (!r.ok) throw new Error('unsolved');
    expect(r.equalDistances).toBe(true);
  });

  it('works with a single leg', () => {
    const r = averageOverLegs([{ distance: 42195, time: 7235 }]);
    expect(r).toMatchObject({
      ok: true,
      averageSpeed: 42195 / 7235,
      meanOfSpeeds: 42195 / 7235,
      harmonicMeanOfSpeeds: 42195 / 7235,
      equalDistances: true,
      equalTimes: true,
    });
  });

  it('needs at least one leg', () => {
    expect(averageOverLegs([])).toEqual({ ok: false, errors: [], formError: 'noLegs' });
  });

  it('reports every invalid leg with its index', () => {
    expect(
      averageOverLegs([
        { distance: 1000, time: 300 },
        { distance: -5, time: 0 },
        { speed: 3 },
        { distance: 1, speed: 2, time: 3 },
        {},
        { speed: NaN, time: 60 },
      ]),
    ).toEqual({
      ok: false,
      errors: [
        { leg: 1, field: 'distance', error: 'mustBePositive' },
        { leg: 1, field: 'time', error: 'zeroTime' },
        { leg: 2, error: 'needTwo' },
        { leg: 3, error: 'chooseTarget' },
        { leg: 4, error: 'needTwo' },
        { leg: 5, field: 'speed', error: 'notANumber' },
      ],
    });
  });

  it('refuses totals a double cannot hold', () => {
    expect(
      averageOverLegs([
        { distance: 1e308, time: 1 },
        { distance: 1e308, time: 1 },
      ]),
    ).toEqual({ ok: false, errors: [], formError: 'outOfRange' });
    expect(
      averageOverLegs([
        { distance: 1e-300, time: 1e300 },
        { distance: 1, time: 1 },
      ]),
    ).toMatchObject({ ok: false, errors: [{ leg: 0, error: 'outOfRange' }] });
  });
});
