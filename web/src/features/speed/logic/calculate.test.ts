import { describe, expect, it } from 'vitest';
import { legsForm, paceOf, solveForm, speedInUnit, type SolveOutcome } from './calculate';
import { formatter } from './format';
import { defaultForm, type LegForm, type SpeedForm } from './state';

const solveWith = (form: Partial<SpeedForm>, lang = 'en') => solveForm({ ...defaultForm, ...form }, lang);
const ok = (r: SolveOutcome) => {
  if (!r.ok) throw new Error(`not solved: ${JSON.stringify(r)}`);
  return r;
};
const fmt = formatter('en', 6);

describe('solving from the texts', () => {
  it('150 km in 2:30:00 is 60 km/h exactly', () => {
    const r = ok(solveWith({ distance: '150', time: '2:30:00' }));
    expect(r.solution.target).toBe('speed');
    expect(speedInUnit(r.speed, 'km-h')).toBe(60);
    expect(speedInUnit(r.speed, 'm-s')).toBe(150000 / 9000);
    expect(speedInUnit(r.speed, 'kn')).toBe((150000 * 3600) / (9000 * 1852));
    expect(paceOf(r.speed, 'min-km')).toBe(60);
    expect(r.solution.substituted((q) => (q === 'speed' ? fmt.speed(r.speed, 'km-h') : q === 'distance' ? fmt.distance(r.distance, 'km') : fmt.time(r.time, 'hms')))).toBe(
      '60 km/h = 150 km / 2:30:00',
    );
  });

  it('a marathon at 12 km/h takes 3:30:58.5', () => {
    const r = ok(solveWith({ speed: '12', distance: '42.195' }));
    expect(r.solution.target).toBe('time');
    expect(r.time).toBe(12658.5);
    expect(fmt.timeBoth(r.time, 'hms')).toBe('3:30:58.5 (3.51625 h)');
  });

  it('a pace of 5:00 min/km is 12 km/h, and 8:02.803 min/mi (1609.344 m × 0.3 s/m)', () => {
    const r = ok(solveWith({ speed: '5:00', speedUnit: 'min-km', distance: '10', time: '' }));
    expect(speedInUnit(r.speed, 'km-h')).toBe(12);
    expect(r.time).toBe(3000);
    expect(fmt.speed(r.speed, 'min-mi')).toBe('8:02.803 min/mi');
    expect(fmt.speed(r.speed, 'min-km')).toBe('5:00 min/km');
    expect(fmt.speed(r.speed, 'mach')).toBe('Mach 0.009795');
  });

  it('65 mph for 3.5 hours covers 227.5 mi', () => {
    const r = ok(solveWith({ speed: '65', speedUnit: 'mph', time: '3.5', timeFormat: 'hours', distanceUnit: 'mi' }));
    expect(r.solution.target).toBe('distance');
    expect(fmt.distance(r.distance, 'mi')).toBe('227.5 mi');
    expect(fmt.time(r.time, 'hours')).toBe('3.5 h');
  });

  it('reads numbers and times in the language of the page', () => {
    const r = ok(solveWith({ distance: '1.500,5', distanceUnit: 'm', time: '0:02:30,05' }, 'de'));
    expect(r.distance).toBe(1500.5);
    expect(r.time).toBe(150.05);
    expect(ok(solveWith({ distance: '150', time: '2,5', timeFormat: 'hours' }, 'de')).time).toBe(9000);
  });

  it('solves for the chosen quantity, ignoring its own text', () => {
    const r = ok(solveWith({ target: 'distance', speed: '12', distance: 'ignored', time: '1:00:00' }));
    expect(r.distance).toBe(12000);
  });

  it('says what is missing or in the way', () => {
    expect(solveWith({})).toEqual({ ok: false, empty: true, fieldErrors: {}, formError: 'needTwo' });
    expect(solveWith({ speed: '12' })).toEqual({ ok: false, empty: false, fieldErrors: {}, formError: 'needTwo' });
    expect(solveWith({ speed: '12', distance: '5', time: '1:00:00' })).toMatchObject({ ok: false, formError: 'chooseTarget' });
    expect(solveWith({ target: 'time', speed: '12' })).toMatchObject({ ok: false, fieldErrors: {}, formError: 'required' });
    expect(solveWith({ target: 'speed' })).toMatchObject({ ok: false, empty: true, formError: 'required' });
  });

  it('reports errors at their fields', () => {
    expect(solveWith({ distance: '1,5', time: '0:00:00' })).toEqual({ ok: false, empty: false, fieldErrors: { distance: 'notANumber', time: 'zeroTime' } });
    expect(solveWith({ distance: '-5', time: '1:75:00' })).toMatchObject({ fieldErrors: { distance: 'mustBePositive', time: 'minutesTooLarge' } });
    expect(solveWith({ distance: '0', time: '1:00:75' })).toMatchObject({ fieldErrors: { distance: 'mustBePositive', time: 'secondsTooLarge' } });
    expect(solveWith({ speed: 'fast', speedUnit: 'min-km', time: 'soon' })).toMatchObject({ fieldErrors: { speed: 'notATime', time: 'notATime' } });
    expect(solveWith({ speed: '0', distance: '5' })).toMatchObject({ fieldErrors: { speed: 'mustBePositive' } });
    expect(solveWith({ speed: '-5:00', speedUnit: 'min-km', distance: '5' })).toMatchObject({ fieldErrors: { speed: 'mustBePositive' } });
  });

  it('refuses results that no unit can show', () => {
    expect(solveWith({ distance: '1e300', time: '1e-300', timeFormat: 'hours' })).toMatchObject({ ok: false, formError: 'outOfRange' });
    expect(solveWith({ speed: '1e306', speedUnit: 'm-s', distance: '1' })).toMatchObject({ ok: false, formError: 'outOfRange' });
  });
});

const leg = (mode: LegForm['mode'], value: string, time: string, key = 0): LegForm => ({ key, mode, value, time });
const legsWith = (legs: LegForm[], form: Partial<SpeedForm> = {}, lang = 'en') => legsForm({ ...defaultForm, ...form, legs }, lang);

describe('average speed over legs from the texts', () => {
  it('60 km at 60 km/h and 60 km at 40 km/h average 48 km/h, against a mean of 50', () => {
    const r = legsWith([leg('dt', '60', '1:00:00'), leg('dt', '60', '1:30:00')]);
    if (!r.ok) throw new Error('not ok');
    expect(speedInUnit({ metres: r.totalDistance, seconds: r.totalTime }, 'km-h')).toBe(48);
    expect(speedInUnit({ metres: r.meanOfSpeeds, seconds: 1 }, 'km-h')).toBe(50);
    expect(r.equalDistances).toBe(true);
    expect(r.equalTimes).toBe(false);
  });

  it('takes speed and time legs, with decimal hours and a decimal comma', () => {
    const r = legsWith([leg('vt', '60', '1'), leg('vt', '40', '1,5')], { legTimeFormat: 'hours' }, 'de');
    if (!r.ok) throw new Error('not ok');
    expect(fmt.speed({ metres: r.totalDistance, seconds: r.totalTime }, 'km-h')).toBe('48 km/h');
    expect(fmt.distance(r.totalDistance, 'km')).toBe('120 km');
    expect(fmt.timeBoth(r.totalTime, 'hours')).toBe('2.5 h (2:30:00)');
  });

  it('takes a pace as the speed of a leg', () => {
    const r = legsWith([leg('vt', '5:00', '0:30:00'), leg('vt', '6:00', '0:30:00')], { legSpeedUnit: 'min-km' });
    if (!r.ok) throw new Error('not ok');
    expect(fmt.distance(r.totalDistance, 'km')).toBe('11 km');
    expect(fmt.speed({ metres: r.meanOfSpeeds, seconds: 1 }, 'km-h')).toBe('11 km/h');
    expect(r.equalTimes).toBe(true);
  });

  it('names the empty and incomplete legs, and the invalid fields', () => {
    expect(legsWith([leg('dt', '', ''), leg('dt', '', '')])).toEqual({ ok: false, empty: true, errors: [], incomplete: [0, 1], outOfRange: false });
    expect(legsWith([leg('dt', '5', '1:00:00'), leg('dt', '', '1:00:00'), leg('vt', '3', '')])).toMatchObject({ ok: false, empty: false, errors: [], incomplete: [1, 2] });
    expect(legsWith([leg('dt', 'x', '0:00'), leg('vt', '-3', '1:00:00')])).toMatchObject({
      ok: false,
      errors: [
        { leg: 0, field: 'value', error: 'notANumber' },
        { leg: 0, field: 'time', error: 'zeroTime' },
        { leg: 1, field: 'value', error: 'mustBePositive' },
      ],
    });
  });

  it('refuses totals no unit can show', () => {
    expect(legsWith([leg('dt', '1e308', '1'), leg('dt', '1e308', '1')], { legDistanceUnit: 'm' })).toMatchObject({ ok: false, outOfRange: true });
  });
});

describe('formatting', () => {
  it('never shows a clock that reads 0 or overflows', () => {
    expect(fmt.clock(0.0001)).toBe('0.0001 s');
    expect(fmt.clock(1e20)).toBe(fmt.hours(1e20));
    expect(fmt.hours(1e20)).toBe('2.77778E16 h');
    expect(formatter('de', 2).timeBoth(5400.5, 'hms')).toBe('1:30:00,5 (1,5 h)');
    expect(formatter('en', 0).clock(59.6)).toBe('0:01:00');
    expect(formatter('en', 0).clock(59.6, 'auto')).toBe('1:00');
  });
});
