import { describe, expect, it } from 'vitest';
import { defaultForm, legsFromParam, legsToParam, resetLegs, resetSolve, speedCodec, textFromParam, textToParam, type LegForm, type SpeedForm } from './state';

const decode = (search: string, lang = 'en') => speedCodec(lang).decode(new URLSearchParams(search));
const encode = (form: Partial<SpeedForm>, lang = 'en') => speedCodec(lang).encode({ ...defaultForm, ...form });
const leg = (key: number, mode: LegForm['mode'], value: string, time: string): LegForm => ({ key, mode, value, time });

describe('speed form in the query string', () => {
  it('leaves the defaults out', () => {
    expect(encode({})).toBe('');
    expect(decode('')).toEqual(defaultForm);
  });

  it('writes numbers in JavaScript notation and clock times as they are', () => {
    expect(encode({ distance: '150', time: '2:30:00' })).toBe('?d=150&t=2%3A30%3A00');
    expect(encode({ speed: '1.234,5', speedUnit: 'mph', time: '1,5', timeFormat: 'hours' }, 'de')).toBe('?v=1234.5&vu=mph&t=1.5&tf=hours');
    expect(encode({ time: '1:02:03,5' }, 'fr')).toBe('?t=1%3A02%3A03.5');
    expect(encode({ speed: ' 5 : 00 ', speedUnit: 'min-km' })).toBe('?v=5%3A00&vu=min-km');
  });

  it('leaves out the text of the field being solved for', () => {
    expect(encode({ target: 'time', speed: '12', distance: '42.195', time: '9:99' })).toBe('?solve=time&v=12&d=42.195');
    expect(decode('?solve=time&v=12&d=42.195&t=1:00:00')).toMatchObject({ target: 'time', speed: '12', distance: '42.195', time: '' });
  });

  it('opens a German link in English, and an English one in German', () => {
    const german = encode({ distance: '21,0975', time: '1:02:03,5', precision: '2', distanceUnit: 'mi' }, 'de');
    expect(german).toBe('?d=21.0975&du=mi&t=1%3A02%3A03.5&dp=2');
    expect(decode(german, 'en')).toEqual({ ...defaultForm, distance: '21.0975', time: '1:02:03.5', precision: '2', distanceUnit: 'mi' });
    expect(decode(german, 'de')).toEqual({ ...defaultForm, distance: '21,0975', time: '1:02:03,5', precision: '2', distanceUnit: 'mi' });
    expect(decode('?t=1.5&tf=hours', 'fr')).toMatchObject({ time: '1,5', timeFormat: 'hours' });
    expect(decode('?t=1.5&tf=hours', 'ja')).toMatchObject({ time: '1.5', timeFormat: 'hours' });
  });

  it('keeps invalid and half-typed texts, so a reload loses nothing', () => {
    const form = { speed: '12abc', distance: '1,5', time: '1:75:00' };
    const search = encode(form);
    expect(search).toBe('?v=12abc&d=1%2C5&t=1%3A75%3A00');
    expect(decode(search)).toMatchObject(form);
  });

  it('ignores unknown values', () => {
    expect(decode('?solve=everything&vu=warp&du=parsec&tf=days&dp=99&lu=au&lv=c&lt=weeks')).toEqual(defaultForm);
  });

  it('round-trips every field of a form', () => {
    const form: SpeedForm = {
      target: 'distance',
      speedUnit: 'min-mi',
      distanceUnit: 'nmi',
      timeFormat: 'hours',
      precision: '3',
      speed: '8:30',
      distance: '',
      time: '0,75',
      legs: [leg(1, 'vt', '5:00', '0:30:00'), leg(2, 'dt', '2,5', '0,25'), leg(3, 'dt', '', '')],
      legDistanceUnit: 'mi',
      legSpeedUnit: 'min-km',
      legTimeFormat: 'hours',
    };
    for (const lang of ['de', 'fr', 'en', 'ja']) {
      const text = (s: string) => (lang === 'de' || lang === 'fr' ? s : s.replace(',', '.'));
      const local = { ...form, time: text(form.time), legs: form.legs.map((l) => ({ ...l, value: text(l.value), time: text(l.time) })) };
      expect(decode(encode(local, lang), lang), lang).toEqual(local);
    }
  });
});

describe('legs in the query string', () => {
  it('writes legs compactly, in JavaScript notation', () => {
    const legs = [leg(1, 'dt', '60', '1:00:00'), leg(2, 'vt', '40,5', '1:30:00')];
    expect(legsToParam(legs, 'de')).toBe('d:60,t:1:00:00;v:40.5,t:1:30:00');
    expect(encode({ legs }, 'de')).toBe(`?legs=${encodeURIComponent('d:60,t:1:00:00;v:40.5,t:1:30:00')}`);
    expect(legsFromParam('d:60,t:1:00:00;v:40.5,t:1:30:00', 'de')).toEqual(legs);
  });

  it('keeps the default two empty legs out of the link, but not one or three', () => {
    expect(encode({ legs: [leg(1, 'dt', '', ''), leg(2, 'dt', '', '')] })).toBe('');
    expect(encode({ legs: [leg(1, 'dt', '', '')] })).toBe(`?legs=${encodeURIComponent('d:,t:')}`);
    expect(decode(encode({ legs: [leg(1, 'dt', '', '')] })).legs).toEqual([leg(1, 'dt', '', '')]);
    expect(decode(encode({ legs: [leg(1, 'vt', '', ''), leg(2, 'dt', '', ''), leg(3, 'dt', '', '')] })).legs).toHaveLength(3);
  });

  it('keeps texts with separators in them', () => {
    const legs = [leg(1, 'dt', '1,5;2', '1:2%:3'), leg(2, 'vt', 'a:b', ',')];
    const param = legsToParam(legs, 'en');
    expect(param).toBe('d:1%2C5%3B2,t:1:2%25:3;v:a:b,t:%2C');
    expect(legsFromParam(param, 'en')).toEqual(legs);
    const search = encode({ legs });
    expect(decode(search).legs).toEqual(legs);
  });

  it('survives a mangled parameter', () => {
    expect(legsFromParam('garbage', 'en')).toEqual([leg(1, 'dt', '', '')]);
    expect(legsFromParam('x:1,t:5;;d', 'en')).toEqual([leg(1, 'dt', '', '5'), leg(2, 'dt', '', ''), leg(3, 'dt', '', '')]);
    expect(legsFromParam(Array(30).fill('d:1,t:1').join(';'), 'en')).toHaveLength(20);
  });
});

describe('field texts in links', () => {
  it('normalises valid clock times and leaves the rest', () => {
    expect(textToParam('1:02:03,5', 'de')).toBe('1:02:03.5');
    expect(textToParam('1:02:03.5', 'en')).toBe('1:02:03.5');
    expect(textToParam('1:02:03,5', 'en')).toBe('1:02:03,5'); // not a time in English: as typed
    expect(textToParam('0:00', 'en')).toBe('0:00');
    expect(textFromParam('1:02:03.5', 'de')).toBe('1:02:03,5');
    expect(textFromParam('2.5e-7', 'pt')).toBe('2,5e-7');
  });
});

describe('resetting one part', () => {
  const form: SpeedForm = { ...defaultForm, speed: '12', target: 'time', precision: '2', legs: [leg(1, 'dt', '5', '1')], legSpeedUnit: 'mph' };
  it('resets the solve part and keeps the legs', () => {
    expect(resetSolve(form)).toEqual({ ...defaultForm, legs: form.legs, legSpeedUnit: 'mph' });
  });
  it('resets the legs and keeps the solve part', () => {
    expect(resetLegs(form)).toEqual({ ...form, legs: defaultForm.legs, legSpeedUnit: 'km-h' });
  });
});
