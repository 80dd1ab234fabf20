import { describe, expect, it } from 'vitest';
import { calculate } from './calculate';
import { areaCodec, defaultForm, type AreaForm } from './state';

const decode = (search: string, lang = 'en') => areaCodec(lang).decode(new URLSearchParams(search));
const encode = (form: Partial<AreaForm>, lang = 'en') => areaCodec(lang).encode({ ...defaultForm, ...form });

describe('area form in the query string', () => {
  it('leaves the defaults out', () => {
    expect(encode({})).toBe('');
    expect(decode('')).toEqual(defaultForm);
  });

  it('writes the current shape and its fields, numbers in JavaScript notation', () => {
    expect(encode({ shape: 'circle', unit: 'cm', texts: { r: '2,5', l: '9' } }, 'de')).toBe('?shape=circle&unit=cm&r=2.5');
    expect(encode({ shape: 'sector', angleUnit: 'rad', texts: { r: '1', angle: '0.5' } })).toBe(
      '?shape=sector&angle=rad&r=1&angle=0.5'.replace('angle=rad&r=1&angle=0.5', 'angle=rad&r=1&angle=0.5'),
    );
  });

  it('shows a shared link in the notation of the page that opens it', () => {
    expect(decode('?shape=circle&r=2.5', 'de').texts).toEqual({ r: '2,5' });
    expect(decode('?shape=circle&r=2.5', 'ja').texts).toEqual({ r: '2.5' });
  });

  it('keeps text that is not a number, so a reload loses nothing', () => {
    const search = encode({ shape: 'square', texts: { s: '12abc' } });
    expect(search).toBe('?shape=square&s=12abc');
    expect(decode(search).texts).toEqual({ s: '12abc' });
  });

  it('ignores unknown shapes, units and fields of other shapes', () => {
    expect(decode('?shape=blob&unit=parsec&dp=99&in=furlong&r=3')).toEqual(defaultForm);
  });

  it('writes vertices as x,y;x,y and reads them back as lines', () => {
    const texts = { vertices: '0;0\n4;0\n4,5;3' };
    const search = encode({ shape: 'polygon', texts }, 'de');
    expect(search).toBe(`?shape=polygon&vertices=${encodeURIComponent('0,0;4,0;4.5,3')}`);
    expect(decode(search, 'de').texts.vertices).toBe('0; 0\n4; 0\n4,5; 3');
    expect(decode(search, 'en').texts.vertices).toBe('0, 0\n4, 0\n4.5, 3');
  });

  it('round-trips every field of a form to the same result', () => {
    const form: AreaForm = { ...defaultForm, shape: 'trapezoid', unit: 'ft', precision: '3', areaUnit: 'acre', texts: { a: '10', b: '6', h: '4', c: '5', d: '4,5' } };
    const again = decode(encode(form, 'fr'), 'fr');
    expect(again).toEqual(form);
  });
});

describe('area calculation from the form', () => {
  const result = (form: Partial<AreaForm>, lang = 'en') => calculate({ ...defaultForm, ...form }, lang);

  it('computes nothing before anything is entered', () => {
    expect(result({ texts: {} })).toBeUndefined();
    expect(result({ shape: 'polygon', texts: { vertices: '  ' } })).toBeUndefined();
  });

  it('reads numbers in the language of the page', () => {
    expect(result({ texts: { l: '12,5', w: '8' } }, 'de')).toMatchObject({ ok: true, area: 100, perimeter: 41 });
    expect(result({ texts: { l: '1,250', w: '2' } }, 'en')).toMatchObject({ ok: true, area: 2500 });
  });

  it('reports text that is not a number, and a missing field, at their fields', () => {
    expect(result({ texts: { l: '12,5', w: '' } }, 'en')).toEqual({
      ok: false,
      errors: [
        { field: 'l', code: 'notANumber' },
        { field: 'w', code: 'required' },
      ],
    });
  });

  it('computes the polygon from its lines', () => {
    expect(result({ shape: 'polygon', texts: { vertices: '0,0\n4,0\n5,3\n1,4' } })).toMatchObject({ ok: true, area: 14.5 });
    expect(result({ shape: 'polygon', texts: { vertices: '0;0\n4;0\n4;3' } }, 'de')).toMatchObject({ ok: true, area: 6 });
  });

  it('uses the angle unit', () => {
    const deg = result({ shape: 'sector', texts: { r: '10', angle: '60' } });
    const rad = result({ shape: 'sector', angleUnit: 'rad', texts: { r: '10', angle: String(Math.PI / 3) } });
    expect(deg).toMatchObject({ ok: true });
    expect(rad).toMatchObject({ ok: true });
    if (deg?.ok && rad?.ok) expect(rad.area).toBeCloseTo(deg.area, 12);
  });
});
