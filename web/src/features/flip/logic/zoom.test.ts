import { describe, expect, it } from 'vitest';
import { apply, identity, type Operation, type Transform } from '../../../lib/image/transform';
import { around, covers, toResult, toUpright } from './zoom';

const ops: Operation[] = ['flipH', 'flipV', 'rotateCW', 'rotateCCW'];
/** All eight transforms, each reached by pressing buttons. */
const all: Transform[] = [...new Set([identity, ...ops.flatMap((a) => ops.flatMap((b) => [apply(identity, a), apply(apply(identity, a), b)]))])];

describe('around', () => {
  it('is the view and half of it again on every side, inside the result', () => {
    expect(around({ x: 1000, y: 500, width: 400, height: 300 }, { width: 6000, height: 4000 })).toEqual({ x: 800, y: 350, width: 800, height: 600 });
  });
  it('stays within the result at its edges', () => {
    expect(around({ x: 0, y: 3700, width: 400, height: 300 }, { width: 6000, height: 4000 })).toEqual({ x: 0, y: 3400, width: 800, height: 600 });
  });
  it('keeps less margin on a large screen, and never less than the view', () => {
    const big = { x: 2000, y: 1000, width: 3600, height: 2200 }; // 4K at a density of 2
    const r = around(big, { width: 12000, height: 8000 }, 16_000_000);
    expect(r.width * r.height).toBeLessThanOrEqual(16_000_000);
    expect(r.width).toBeGreaterThan(big.width);
    expect(around(big, { width: 12000, height: 8000 }, 1_000_000)).toMatchObject({ width: 3600, height: 2200 });
  });
  it('is the whole result when that is smaller', () => {
    expect(around({ x: -100, y: 20, width: 900, height: 600 }, { width: 700, height: 900 })).toEqual({ x: 0, y: 0, width: 700, height: 900 });
  });
});

describe('covers', () => {
  const size = { width: 2000, height: 1000 };
  it('needs every pixel in sight', () => {
    const region = { x: 100, y: 100, width: 800, height: 600 };
    expect(covers(region, { x: 100, y: 100, width: 800, height: 600 }, size)).toBe(true);
    expect(covers(region, { x: 101, y: 100, width: 800, height: 600 }, size)).toBe(false);
    expect(covers(region, { x: 100, y: 99, width: 800, height: 600 }, size)).toBe(false);
  });
  it('ignores what lies outside the result (a small image, centred)', () => {
    expect(covers({ x: 0, y: 0, width: 2000, height: 1000 }, { x: -50, y: -20, width: 2100, height: 1040 }, size)).toBe(true);
  });
});

describe('toResult and toUpright', () => {
  const crop = { x: 30, y: 50, width: 400, height: 300 };
  it('are each other’s inverse for all eight transforms', () => {
    expect(all).toHaveLength(8);
    for (const t of all) {
      for (const p of [{ x: 30, y: 50 }, { x: 429.5, y: 349 }, { x: 200.25, y: 120 }]) {
        const back = toUpright(toResult(p, t, crop), t, crop);
        expect(back.x).toBeCloseTo(p.x, 9);
        expect(back.y).toBeCloseTo(p.y, 9);
      }
    }
  });
  it('maps the crop’s corners to the result’s', () => {
    // Turned right: the crop's top-left corner is the result's top-right.
    expect(toResult({ x: 30, y: 50 }, apply(identity, 'rotateCW'), crop)).toEqual({ x: 300, y: 0 });
    // Mirrored: its top-right is the result's top-left.
    expect(toResult({ x: 430, y: 50 }, apply(identity, 'flipH'), crop)).toEqual({ x: 0, y: 0 });
  });
});
