import { describe, expect, it } from 'vitest';
import { type ParseNumber, type Point, parseVertices, polygonArea, polygonAreaFromText, segmentsTouch } from './polygon';
import type { AreaOk, AreaResult } from './result';

/** A plain parser: dot decimals only. */
const plain: ParseNumber = (t) => (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : undefined);
/** A decimal-comma parser with dot grouping, as German writes numbers. */
const german: ParseNumber = (t) => plain(t.replace(/\.(?=\d{3}(\D|$))/g, '').replace(',', '.'));

const pts = (...xy: [number, number][]): Point[] => xy.map(([x, y]) => ({ x, y }));

function ok(r: AreaResult): AreaOk {
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}

const square = pts([0, 0], [1, 0], [1, 1], [0, 1]);

describe('parsing vertices', () => {
  it('reads x,y lines with any of the separators, ignoring blank lines', () => {
    const text = '0,0\n\n  4;0 \r\n4\t3\r0 3\n   \n';
    expect(parseVertices(text, plain)).toEqual({ ok: true, vertices: pts([0, 0], [4, 0], [4, 3], [0, 3]) });
    expect(parseVertices('1, 2\n-1.5 , 2.5e1\n3   4', plain)).toEqual({
      ok: true,
      vertices: pts([1, 2], [-1.5, 25], [3, 4]),
    });
  });

  it('lets a decimal-comma language keep its commas', () => {
    expect(parseVertices('1,5;2,5\n1,5\t2\n1.000,5 2,25\n3,4', german)).toEqual({
      ok: true,
      vertices: pts([1.5, 2.5], [1.5, 2], [1000.5, 2.25], [3, 4]),
    });
  });

  it('reports every line that is not a vertex, by its number', () => {
    expect(parseVertices('0,0\n1,0,2\n\nx,1\n1\n1,1', plain)).toEqual({
      ok: false,
      errors: [
        { field: 'vertices', code: 'invalidVertex', line: 2 },
        { field: 'vertices', code: 'invalidVertex', line: 4 },
        { field: 'vertices', code: 'invalidVertex', line: 5 },
      ],
    });
    expect(parseVertices('1,Infinity', () => Number.POSITIVE_INFINITY)).toMatchObject({ ok: false });
    expect(parseVertices('1,5,2,5', german)).toMatchObject({ ok: false });
  });

  it('wants some text', () => {
    expect(parseVertices(' \n\n', plain)).toEqual({ ok: false, errors: [{ field: 'vertices', code: 'required' }] });
  });
});

describe('polygon area', () => {
  it('gives the unit square 1 in both orientations, with its perimeter', () => {
    expect(ok(polygonArea(square))).toMatchObject({ area: 1, perimeter: 4 });
    expect(ok(polygonArea([...square].reverse()))).toMatchObject({ area: 1, perimeter: 4 });
  });

  it('gives exact areas of known figures', () => {
    expect(ok(polygonArea(pts([0, 0], [4, 0], [0, 3]))).area).toBe(6);
    expect(ok(polygonArea(pts([0, 0], [4, 0], [0, 3]))).perimeter).toBe(12);
    // An L shape: a 2 × 2 square missing a 1 × 1 corner.
    expect(ok(polygonArea(pts([0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]))).area).toBe(3);
    // Far from the origin the shoelace still sums small numbers: it works relative to a vertex.
    const far = square.map(({ x, y }) => ({ x: x + 1e9, y: y + 1e9 }));
    expect(ok(polygonArea(far)).area).toBe(1);
    // A regular hexagon of side 1: 3√3/2.
    const hexagon = Array.from({ length: 6 }, (_, i) => ({ x: Math.cos((i * Math.PI) / 3), y: Math.sin((i * Math.PI) / 3) }));
    expect(ok(polygonArea(hexagon)).area).toBeCloseTo((3 * Math.sqrt(3)) / 2, 14);
  });

  it('ignores a closing copy of the first vertex and repeated vertices', () => {
    expect(ok(polygonArea(pts([0, 0], [1, 0], [1, 0], [1, 1], [0, 1], [0, 0]))).area).toBe(1);
  });

  it('accepts a vertex in the middle of a straight edge', () => {
    expect(ok(polygonArea(pts([1, 0], [0, 0], [0, 1], [2, 0]))).area).toBe(1);
  });

  it('wants three distinct vertices', () => {
    const few = { ok: false, errors: [{ field: 'vertices', code: 'tooFewVertices' }] };
    expect(polygonArea([])).toEqual(few);
    expect(polygonArea(pts([0, 0], [1, 1]))).toEqual(few);
    expect(polygonArea(pts([0, 0], [1, 1], [0, 0]))).toEqual(few);
    expect(polygonArea(pts([0, 0], [1, 1], [0, 0], [1, 1]))).toEqual(few);
  });

  it('refuses collinear points as having no area', () => {
    const zero = { ok: false, errors: [{ field: 'vertices', code: 'zeroArea' }] };
    expect(polygonArea(pts([0, 0], [1, 1], [2, 2]))).toEqual(zero);
    expect(polygonArea(pts([0, 0], [2, 0], [1, 0], [3, 0]))).toEqual(zero);
  });

  it('refuses polygons that cross or touch themselves', () => {
    const crossing = { ok: false, errors: [{ field: 'vertices', code: 'selfIntersecting' }] };
    // A bow tie: its shoelace sum is 0, but that is not why it is refused.
    expect(polygonArea(pts([0, 0], [1, 1], [1, 0], [0, 1]))).toEqual(crossing);
    // A lopsided bow tie, whose shoelace sum is not 0.
    expect(polygonArea(pts([0, 0], [2, 2], [2, 0], [0, 1]))).toEqual(crossing);
    // Two squares meeting at one vertex.
    expect(polygonArea(pts([0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [1, 2], [1, 1], [0, 1]))).toEqual(crossing);
    // A vertex that lands on a non-adjacent edge.
    expect(polygonArea(pts([0, 0], [4, 0], [4, 4], [2, 0], [0, 4]))).toEqual(crossing);
    // A spike that runs back along its own edge.
    expect(polygonArea(pts([0, 0], [2, 0], [1, 0], [1, 1]))).toEqual(crossing);
    expect(polygonArea(pts([2, 0], [1, 0], [1, 1], [0, 0]))).toEqual(crossing);
  });

  it('never answers Infinity', () => {
    const big = square.map(({ x, y }) => ({ x: x * 1e200, y: y * 1e200 }));
    expect(polygonArea(big)).toEqual({ ok: false, errors: [{ field: 'result', code: 'outOfRange' }] });
  });

  it('shows the shoelace with the values put in', () => {
    const r = ok(polygonAreaFromText('0,0\n2,0\n0,-1', plain));
    expect(r.area).toBe(1);
    expect(r.formula).toBe('A = ½ × |Σ (xᵢ × yᵢ₊₁ − xᵢ₊₁ × yᵢ)|');
    expect(r.substituted(String)).toBe('A = ½ × |(0 × 0 − 2 × 0) + (2 × (-1) − 0 × 0) + (0 × 0 − 0 × (-1))|');
    expect(r.perimeterFormula).toBe('P = Σ √((xᵢ₊₁ − xᵢ)² + (yᵢ₊₁ − yᵢ)²)');
    expect(r.substitutedPerimeter!(String)).toBe(
      'P = √((2 − 0)² + (0 − 0)²) + √((0 − 2)² + ((-1) − 0)²) + √((0 − 0)² + (0 − (-1))²)',
    );
  });

  it('passes parse errors through from the text', () => {
    expect(polygonAreaFromText('0,0\nnope\n1,1', plain)).toEqual({
      ok: false,
      errors: [{ field: 'vertices', code: 'invalidVertex', line: 2 }],
    });
  });
});

describe('segments', () => {
  const [a, b, c, d] = pts([0, 0], [2, 2], [0, 2], [2, 0]);
  it('cross, touch, overlap or miss', () => {
    expect(segmentsTouch(a, b, c, d)).toBe(true);
    expect(segmentsTouch(a, { x: 1, y: 1 }, { x: 1, y: 1 }, d)).toBe(true);
    expect(segmentsTouch(a, { x: 2, y: 0 }, { x: 1, y: 0 }, { x: 3, y: 0 })).toBe(true);
    expect(segmentsTouch(a, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 })).toBe(false);
    expect(segmentsTouch(a, c, { x: 1, y: 0 }, { x: 1, y: 5 })).toBe(false);
  });
});
