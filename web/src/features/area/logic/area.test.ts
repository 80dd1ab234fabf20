import { describe, expect, it } from 'vitest';
import { type AreaInputs, type AreaOptions, computeArea } from './area';
import type { AreaOk, FieldError } from './result';
import { type FormulaShapeId, shapes } from './shapes';

const fmt = (n: number) => String(n);

function ok(shape: FormulaShapeId, inputs: AreaInputs, options?: AreaOptions): AreaOk {
  const r = computeArea(shape, inputs, options);
  if (!r.ok) throw new Error(`${shape}: ${JSON.stringify(r.errors)}`);
  return r;
}

function errors(shape: FormulaShapeId, inputs: AreaInputs, options?: AreaOptions): readonly FieldError[] {
  const r = computeArea(shape, inputs, options);
  if (r.ok) throw new Error(`${shape}: expected errors, got area ${r.area}`);
  return r.errors;
}

function expectRelative(actual: number | undefined, expected: number, tolerance = 1e-15) {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

/** One valid input per shape, with every field (optional ones included) filled. */
const valid: Record<FormulaShapeId, AreaInputs> = {
  square: { s: 3 },
  rectangle: { l: 3, w: 4.5 },
  triangle: { b: 3, h: 4 },
  'triangle-sss': { a: 3, b: 4, c: 5 },
  'triangle-sas': { a: 4, b: 5, angle: 30 },
  'right-triangle': { a: 3, b: 4 },
  circle: { r: 2 },
  'circle-diameter': { d: 4 },
  semicircle: { r: 2 },
  'quarter-circle': { r: 2 },
  sector: { r: 2, angle: 90 },
  annulus: { outer: 3, inner: 2 },
  ellipse: { a: 3, b: 2 },
  trapezoid: { a: 5, b: 3, h: 2, c: 2.5, d: 2.5 },
  parallelogram: { b: 3, h: 4 },
  'parallelogram-sas': { a: 3, b: 4, angle: 30 },
  rhombus: { p: 6, q: 8 },
  'rhombus-side-angle': { s: 2, angle: 30 },
  kite: { p: 6, q: 8, a: 5, b: 7 },
  'regular-polygon': { n: 6, s: 1 },
};

const formulaShapes = shapes.filter((s): s is Extract<(typeof shapes)[number], { id: FormulaShapeId }> => s.id !== 'polygon');

describe('areas and perimeters, exact', () => {
  it('square and rectangle', () => {
    expect(ok('square', { s: 3 })).toMatchObject({ area: 9, perimeter: 12 });
    expect(ok('rectangle', { l: 3, w: 4.5 })).toMatchObject({ area: 13.5, perimeter: 15 });
  });

  it('triangle by base and height has no perimeter', () => {
    const r = ok('triangle', { b: 3, h: 4 });
    expect(r.area).toBe(6);
    expect(r.perimeter).toBeUndefined();
    expect(r.perimeterFormula).toBeUndefined();
    expect(r.substitutedPerimeter).toBeUndefined();
  });

  it('triangle by three sides', () => {
    expect(ok('triangle-sss', { a: 3, b: 4, c: 5 })).toMatchObject({ area: 6, perimeter: 12 });
    expect(ok('triangle-sss', { a: 13, b: 14, c: 15 }).area).toBe(84);
    expectRelative(ok('triangle-sss', { a: 2, b: 2, c: 2 }).area, Math.sqrt(3));
  });

  it('triangle by two sides and the included angle', () => {
    expect(ok('triangle-sas', { a: 4, b: 5, angle: 30 }).area).toBe(5);
    expect(ok('triangle-sas', { a: 4, b: 5, angle: 150 }).area).toBe(5);
    expectRelative(ok('triangle-sas', { a: 4, b: 5, angle: 30 }).perimeter, 9 + Math.sqrt(41 - 20 * Math.sqrt(3)));
    expect(ok('triangle-sas', { a: 3, b: 4, angle: 90 })).toMatchObject({ area: 6, perimeter: 12 });
    expect(ok('triangle-sas', { a: 3, b: 4, angle: 60 }).perimeter).toBe(7 + Math.sqrt(13));
    const rad = ok('triangle-sas', { a: 3, b: 4, angle: Math.PI / 2 }, { angleUnit: 'rad' });
    expect(rad.area).toBe(6);
    expectRelative(rad.perimeter, 12);
    // A thin triangle keeps its third side: a = b = 1, γ = 1e-9 rad gives c = 1e-9.
    const thin = ok('triangle-sas', { a: 1, b: 1, angle: 1e-9 }, { angleUnit: 'rad' });
    expectRelative(thin.perimeter! - 2, 1e-9, 1e-6);
  });

  it('right triangle', () => {
    expect(ok('right-triangle', { a: 3, b: 4 })).toMatchObject({ area: 6, perimeter: 12 });
    expect(ok('right-triangle', { a: 1, b: 1 }).perimeter).toBe(2 + Math.SQRT2);
  });

  it('circles, by radius and by diameter, and their parts', () => {
    expect(ok('circle', { r: 2 })).toMatchObject({ area: 4 * Math.PI, perimeter: 4 * Math.PI });
    expect(ok('circle-diameter', { d: 4 })).toMatchObject({ area: 4 * Math.PI, perimeter: 4 * Math.PI });
    expect(ok('semicircle', { r: 2 })).toMatchObject({ area: 2 * Math.PI, perimeter: 2 * Math.PI + 4 });
    expect(ok('quarter-circle', { r: 2 })).toMatchObject({ area: Math.PI, perimeter: Math.PI + 4 });
  });

  it('sector in degrees and radians', () => {
    expect(ok('sector', { r: 2, angle: 90 })).toMatchObject({ area: Math.PI, perimeter: 4 + Math.PI });
    expect(ok('sector', { r: 2, angle: 360 }).area).toBe(4 * Math.PI);
    expect(ok('sector', { r: 2, angle: 180 }).area).toBe(ok('semicircle', { r: 2 }).area);
    const rad = ok('sector', { r: 2, angle: Math.PI / 2 }, { angleUnit: 'rad' });
    expect(rad).toMatchObject({ area: Math.PI, perimeter: 4 + Math.PI });
    expectRelative(ok('sector', { r: 3, angle: 1 }, { angleUnit: 'rad' }).area, 4.5);
    expectRelative(ok('sector', { r: 3, angle: 1 }, { angleUnit: 'rad' }).perimeter, 9);
  });

  it('annulus', () => {
    expect(ok('annulus', { outer: 3, inner: 2 })).toMatchObject({ area: 5 * Math.PI, perimeter: 10 * Math.PI });
    // A thin ring: R² − r² would cancel; (R − r)(R + r) does not.
    expectRelative(ok('annulus', { outer: 1e8 + 1, inner: 1e8 }).area, Math.PI * (2e8 + 1));
  });

  it('ellipse, with an approximate perimeter', () => {
    const r = ok('ellipse', { a: 3, b: 2 });
    expect(r.area).toBe(6 * Math.PI);
    expect(r.perimeterApproximate).toBe(true);
    // The exact circumference (Gauss–Kummer series) is 15.86543958929059…; Ramanujan's
    // approximation is 2.5e-12 short of it.
    expectRelative(r.perimeter, 15.86543958929059, 3e-12);
    expect(ok('ellipse', { a: 1, b: 1 }).perimeter).toBe(2 * Math.PI);
    // The worst case, a flat ellipse, is within 0.04 % of its exact perimeter, 4a.
    expectRelative(ok('ellipse', { a: 1, b: 1e-12 }).perimeter, 4, 4.1e-4);
    expectRelative(ok('ellipse', { a: 1, b: 1e-12 }).perimeter, (14 * Math.PI) / 11, 1e-11);
    expect(ok('circle', { r: 1 }).perimeterApproximate).toBeUndefined();
  });

  it('trapezoid, with a perimeter only when both legs are given', () => {
    expect(ok('trapezoid', { a: 5, b: 3, h: 2 })).toMatchObject({ area: 8 });
    expect(ok('trapezoid', { a: 5, b: 3, h: 2 }).perimeter).toBeUndefined();
    expect(ok('trapezoid', { a: 5, b: 3, h: 2, c: 2.5 }).perimeter).toBeUndefined();
    expect(ok('trapezoid', { a: 5, b: 3, h: 2, c: 2.5, d: 2.5 })).toMatchObject({ area: 8, perimeter: 13 });
    expect(ok('trapezoid', { a: 5, b: 3, h: 2, c: 2, d: 3 })).toMatchObject({ perimeter: 13 });
  });

  it('parallelogram, by base and height or by sides and angle', () => {
    const r = ok('parallelogram', { b: 3, h: 4 });
    expect(r.area).toBe(12);
    expect(r.perimeter).toBeUndefined();
    expect(ok('parallelogram-sas', { a: 3, b: 4, angle: 30 })).toMatchObject({ area: 6, perimeter: 14 });
    expect(ok('parallelogram-sas', { a: 3, b: 4, angle: 90 }).area).toBe(12);
    expect(ok('parallelogram-sas', { a: 3, b: 4, angle: 150 }).area).toBe(6);
    expectRelative(ok('parallelogram-sas', { a: 3, b: 4, angle: 45 }).area, 6 * Math.SQRT2);
  });

  it('rhombus, by diagonals or by side and angle', () => {
    expect(ok('rhombus', { p: 6, q: 8 })).toMatchObject({ area: 24, perimeter: 20 });
    expect(ok('rhombus-side-angle', { s: 2, angle: 30 })).toMatchObject({ area: 2, perimeter: 8 });
    expect(ok('rhombus-side-angle', { s: 2, angle: 90 }).area).toBe(4);
  });

  it('kite, with a perimeter when both sides are given', () => {
    expect(ok('kite', { p: 6, q: 8, a: 5, b: 7 })).toMatchObject({ area: 24, perimeter: 24 });
    expect(ok('kite', { p: 6, q: 8 }).perimeter).toBeUndefined();
    expect(ok('kite', { p: 6, q: 8, b: 7 }).perimeter).toBeUndefined();
  });

  it('regular polygon', () => {
    expectRelative(ok('regular-polygon', { n: 6, s: 1 }).area, (3 * Math.sqrt(3)) / 2);
    expect(ok('regular-polygon', { n: 6, s: 1 }).perimeter).toBe(6);
    expect(ok('regular-polygon', { n: 4, s: 2 })).toMatchObject({ area: 4, perimeter: 8 });
    expectRelative(ok('regular-polygon', { n: 3, s: 2 }).area, Math.sqrt(3));
    // A regular octagon of side s: 2(1 + √2)s².
    expectRelative(ok('regular-polygon', { n: 8, s: 1 }).area, 2 * (1 + Math.SQRT2), 1e-14);
    // Many sides approach the circle with the same perimeter: n²s² / 4π.
    expectRelative(ok('regular-polygon', { n: 1e6, s: 1 }).area, 1e12 / (4 * Math.PI), 1e-9);
  });

  it('ignores keys that are not fields of the shape', () => {
    expect(ok('square', { s: 3, r: Number.NaN, angle: -1 }).area).toBe(9);
  });
});

describe('formulas', () => {
  it('reads in standard notation and puts the values in', () => {
    const cases: [FormulaShapeId, AreaInputs, AreaOptions, string, string][] = [
      ['circle', { r: 2 }, {}, 'A = π × r²', 'A = π × 2²'],
      ['triangle', { b: 3, h: 4 }, {}, 'A = ½ × b × h', 'A = ½ × 3 × 4'],
      [
        'triangle-sss',
        { a: 3, b: 4, c: 5 },
        {},
        'A = √(s × (s − a) × (s − b) × (s − c)), s = (a + b + c) / 2',
        'A = √(6 × (6 − 3) × (6 − 4) × (6 − 5)), s = (3 + 4 + 5) / 2',
      ],
      ['triangle-sas', { a: 4, b: 5, angle: 30 }, {}, 'A = ½ × a × b × sin(γ)', 'A = ½ × 4 × 5 × sin(30°)'],
      [
        'triangle-sas',
        { a: 4, b: 5, angle: 0.5 },
        { angleUnit: 'rad' },
        'A = ½ × a × b × sin(γ)',
        'A = ½ × 4 × 5 × sin(0.5)',
      ],
      ['sector', { r: 2, angle: 90 }, {}, 'A = (θ / 360°) × π × r²', 'A = (90° / 360°) × π × 2²'],
      ['sector', { r: 2, angle: 1.5 }, { angleUnit: 'rad' }, 'A = ½ × θ × r²', 'A = ½ × 1.5 × 2²'],
      ['annulus', { outer: 3, inner: 2 }, {}, 'A = π × (R² − r²)', 'A = π × (3² − 2²)'],
      ['regular-polygon', { n: 6, s: 1 }, {}, 'A = n × s² / (4 × tan(π / n))', 'A = 6 × 1² / (4 × tan(π / 6))'],
      ['trapezoid', { a: 5, b: 3, h: 2 }, {}, 'A = (a + b) / 2 × h', 'A = (5 + 3) / 2 × 2'],
    ];
    for (const [shape, inputs, options, formula, substituted] of cases) {
      const r = ok(shape, inputs, options);
      expect(r.formula).toBe(formula);
      expect(r.substituted(fmt)).toBe(substituted);
    }
  });

  it('writes the values with the formatter it is given', () => {
    const de = new Intl.NumberFormat('de-DE');
    const german = (n: number) => de.format(n);
    expect(ok('rectangle', { l: 1.5, w: 2000 }).substituted(german)).toBe('A = 1,5 × 2.000');
    expect(ok('square', { s: 1.2e-7 }).substituted(fmt)).toBe('A = (1.2e-7)²');
  });

  it('gives perimeter formulas where there is a perimeter', () => {
    const r = ok('ellipse', { a: 3, b: 2 });
    expect(r.perimeterFormula).toBe('C ≈ π × (a + b) × (1 + 3 × h / (10 + √(4 − 3 × h))), h = (a − b)² / (a + b)²');
    const twelveDigits = (n: number) => String(Number(n.toPrecision(12)));
    expect(r.substitutedPerimeter!(twelveDigits)).toBe(
      'C ≈ π × (3 + 2) × (1 + 3 × 0.04 / (10 + √(4 − 3 × 0.04))), h = (3 − 2)² / (3 + 2)²',
    );
    expect(ok('sector', { r: 2, angle: 90 }).substitutedPerimeter!(fmt)).toBe('P = 2 × 2 + (90° / 360°) × 2 × π × 2');
    expect(ok('trapezoid', valid.trapezoid).substitutedPerimeter!(fmt)).toBe('P = 5 + 3 + 2.5 + 2.5');
  });

  it('names every value it uses, for every shape and angle unit', () => {
    for (const { id } of formulaShapes) {
      for (const angleUnit of ['deg', 'rad'] as const) {
        const inputs = angleUnit === 'rad' && 'angle' in valid[id] ? { ...valid[id], angle: 0.5 } : valid[id];
        const r = ok(id, inputs, { angleUnit });
        expect(r.formula).toMatch(/^A = /);
        for (const text of [r.formula, r.substituted(fmt), r.perimeterFormula, r.substitutedPerimeter?.(fmt)]) {
          expect(text ?? '').not.toMatch(/[{}]|undefined|NaN/);
        }
        expect(r.perimeter === undefined).toBe(r.perimeterFormula === undefined);
      }
    }
  });
});

describe('invalid input', () => {
  it('checks every field of every shape for missing, non-finite and non-positive values', () => {
    for (const { id, fields } of formulaShapes) {
      for (const f of fields) {
        const withValue = (v: number | undefined) => ({ ...valid[id], [f.id]: v });
        const required = !('optional' in f);
        if (required) expect(errors(id, withValue(undefined))).toEqual([{ field: f.id, code: 'required' }]);
        else expect(computeArea(id, withValue(undefined)).ok).toBe(true);
        for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
          expect(errors(id, withValue(v))).toEqual([{ field: f.id, code: 'notANumber' }]);
        }
        const nonPositive = f.kind === 'length' ? 'mustBePositive' : f.kind === 'angle' ? 'angleRange' : 'tooFewSides';
        for (const v of [0, -1]) {
          expect(errors(id, withValue(v))).toEqual([{ field: f.id, code: nonPositive }]);
        }
      }
    }
  });

  it('reports every bad field at once', () => {
    expect(errors('rectangle', {})).toEqual([
      { field: 'l', code: 'required' },
      { field: 'w', code: 'required' },
    ]);
    expect(errors('triangle-sas', { a: -1, angle: 200 })).toEqual([
      { field: 'a', code: 'mustBePositive' },
      { field: 'b', code: 'required' },
      { field: 'angle', code: 'angleRange' },
    ]);
  });

  it('wants a whole number of at least three sides', () => {
    expect(errors('regular-polygon', { n: 2, s: 1 })).toEqual([{ field: 'n', code: 'tooFewSides' }]);
    expect(errors('regular-polygon', { n: 5.5, s: 1 })).toEqual([{ field: 'n', code: 'mustBeInteger' }]);
    expect(errors('regular-polygon', { n: 0.5, s: 1 })).toEqual([{ field: 'n', code: 'mustBeInteger' }]);
  });

  it('keeps angles in range', () => {
    const angle = [{ field: 'angle', code: 'angleRange' }];
    expect(errors('triangle-sas', { a: 1, b: 1, angle: 180 })).toEqual(angle);
    expect(errors('parallelogram-sas', { a: 1, b: 1, angle: 181 })).toEqual(angle);
    expect(errors('rhombus-side-angle', { s: 1, angle: Math.PI }, { angleUnit: 'rad' })).toEqual(angle);
    expect(errors('sector', { r: 1, angle: 360.5 })).toEqual(angle);
    expect(errors('sector', { r: 1, angle: 7 }, { angleUnit: 'rad' })).toEqual(angle);
    expect(ok('sector', { r: 1, angle: 2 * Math.PI }, { angleUnit: 'rad' }).area).toBe(Math.PI);
  });

  it('refuses sides that make no triangle, naming the longest', () => {
    expect(errors('triangle-sss', { a: 1, b: 2, c: 3 })).toEqual([{ field: 'c', code: 'triangleInequality' }]);
    expect(errors('triangle-sss', { a: 10, b: 2, c: 3 })).toEqual([{ field: 'a', code: 'triangleInequality' }]);
    expect(errors('triangle-sss', { a: 0.1, b: 0.3, c: 0.2 })).toEqual([{ field: 'b', code: 'triangleInequality' }]);
  });

  it('wants the inner radius smaller than the outer', () => {
    const inner = [{ field: 'inner', code: 'innerNotSmaller' }];
    expect(errors('annulus', { outer: 2, inner: 2 })).toEqual(inner);
    expect(errors('annulus', { outer: 2, inner: 3 })).toEqual(inner);
  });

  it('wants a trapezoid’s legs at least as long as its height', () => {
    expect(errors('trapezoid', { a: 5, b: 3, h: 2, c: 1.5, d: 1 })).toEqual([
      { field: 'c', code: 'shorterThanHeight' },
      { field: 'd', code: 'shorterThanHeight' },
    ]);
    expect(ok('trapezoid', { a: 5, b: 3, h: 2, c: 2, d: Math.sqrt(8) }).perimeter).toBe(10 + Math.sqrt(8));
  });

  it('never answers Infinity or a zero that is really an underflow', () => {
    const outOfRange = [{ field: 'result', code: 'outOfRange' }];
    expect(errors('square', { s: 1e200 })).toEqual(outOfRange);
    expect(errors('square', { s: 1e-200 })).toEqual(outOfRange);
    expect(errors('regular-polygon', { n: 1e300, s: 1 })).toEqual(outOfRange);
    expect(errors('rectangle', { l: Number.MAX_VALUE, w: 1 })).toEqual(outOfRange); // perimeter overflows
    expect(ok('rectangle', { l: 1e200, w: 1e-200 }).area).toBe(1);
  });
});
