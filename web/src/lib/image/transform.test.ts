import { describe, expect, it } from 'vitest';
import {
  apply,
  canvasMatrix,
  compose,
  fromExifOrientation,
  identity,
  inverse,
  isIdentity,
  mapPoint,
  outputSize,
  parseTransformKey,
  swapsAxes,
  transformKey,
  transformPixels,
  type Operation,
  type Pixels,
  type Transform,
  steps,
} from './transform';

// Reference images and operations written out pixel by pixel, independently of the code under
// test: out(X, Y) = in(source(X, Y)).
function image(width: number, height: number, value: (x: number, y: number) => number[]): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(value(x, y), (y * width + x) * 4);
  return { width, height, data };
}

function at(p: Pixels, x: number, y: number): number[] {
  const i = (y * p.width + x) * 4;
  return [...p.data.subarray(i, i + 4)];
}

function remap(p: Pixels, width: number, height: number, source: (x: number, y: number) => [number, number]): Pixels {
  return image(width, height, (x, y) => at(p, ...source(x, y)));
}

const { width: W, height: H } = { width: 3, height: 2 };
/** 3×2, every pixel different: red 10·x, green 10·y. */
const known = image(W, H, (x, y) => [10 * x, 10 * y, 200, 255]);

const ref = {
  flipH: (p: Pixels) => remap(p, p.width, p.height, (x, y) => [p.width - 1 - x, y]),
  flipV: (p: Pixels) => remap(p, p.width, p.height, (x, y) => [x, p.height - 1 - y]),
  rotateCW: (p: Pixels) => remap(p, p.height, p.width, (x, y) => [y, p.height - 1 - x]),
  rotateCCW: (p: Pixels) => remap(p, p.height, p.width, (x, y) => [p.width - 1 - y, x]),
  rotate180: (p: Pixels) => remap(p, p.width, p.height, (x, y) => [p.width - 1 - x, p.height - 1 - y]),
  transpose: (p: Pixels) => remap(p, p.height, p.width, (x, y) => [y, x]),
  transverse: (p: Pixels) => remap(p, p.height, p.width, (x, y) => [p.width - 1 - y, p.height - 1 - x]),
};

const operations: readonly Operation[] = ['flipH', 'flipV', 'rotateCW', 'rotateCCW'];
const all: readonly Transform[] = [0, 1, 2, 3].flatMap((turns) => [
  { turns: turns as Transform['turns'], mirror: false },
  { turns: turns as Transform['turns'], mirror: true },
]);

const run = (ops: readonly Operation[], from: Transform = identity) => ops.reduce(apply, from);
const px = (p: Pixels) => ({ width: p.width, height: p.height, data: [...p.data] });

describe('operations on pixels', () => {
  it('knows the 3×2 test image', () => {
    expect(at(known, 0, 0)).toEqual([0, 0, 200, 255]);
    expect(at(known, 2, 1)).toEqual([20, 10, 200, 255]);
  });

  it('leaves the pixels alone for the identity, in a new buffer', () => {
    const out = transformPixels(known, identity);
    expect(px(out)).toEqual(px(known));
    expect(out.data).not.toBe(known.data);
  });

  it('flips horizontally', () => {
    const out = transformPixels(known, apply(identity, 'flipH'));
    expect(px(out)).toEqual(px(ref.flipH(known)));
    // Written out once, to be sure the reference is right too.
    expect([0, 1, 2].map((x) => at(out, x, 0)[0])).toEqual([20, 10, 0]);
    expect([0, 1, 2].map((x) => at(out, x, 1)[1])).toEqual([10, 10, 10]);
  });

  it('flips vertically', () => {
    const out = transformPixels(known, apply(identity, 'flipV'));
    expect(px(out)).toEqual(px(ref.flipV(known)));
    expect(at(out, 0, 0)).toEqual([0, 10, 200, 255]);
  });

  it('rotates clockwise: the top-left corner goes to the top right', () => {
    const out = transformPixels(known, apply(identity, 'rotateCW'));
    expect([out.width, out.height]).toEqual([2, 3]);
    expect(px(out)).toEqual(px(ref.rotateCW(known)));
    expect(at(out, 1, 0)).toEqual(at(known, 0, 0));
    expect(at(out, 0, 0)).toEqual(at(known, 0, 1));
    expect(at(out, 1, 2)).toEqual(at(known, 2, 0));
  });

  it('rotates counter-clockwise: the top-left corner goes to the bottom left', () => {
    const out = transformPixels(known, apply(identity, 'rotateCCW'));
    expect([out.width, out.height]).toEqual([2, 3]);
    expect(px(out)).toEqual(px(ref.rotateCCW(known)));
    expect(at(out, 0, 2)).toEqual(at(known, 0, 0));
  });

  it('matches the step-by-step result after each operation from every starting transform', () => {
    for (const t of all) {
      const before = transformPixels(known, t);
      for (const op of operations) {
        expect(px(transformPixels(known, apply(t, op)))).toEqual(px(ref[op](before)));
      }
    }
  });
});

describe('compositions', () => {
  it('undoes a flip with the same flip', () => {
    expect(run(['flipH', 'flipH'])).toBe(identity);
    expect(run(['flipV', 'flipV'])).toBe(identity);
    expect(px(ref.flipH(transformPixels(known, run(['flipH']))))).toEqual(px(known));
  });

  it('has an inverse for every element', () => {
    for (const t of all) {
      expect(compose(t, inverse(t))).toBe(identity);
      expect(compose(inverse(t), t)).toBe(identity);
    }
  });

  it('comes round after four quarter turns', () => {
    expect(run(['rotateCW', 'rotateCW', 'rotateCW', 'rotateCW'])).toBe(identity);
    expect(run(['rotateCCW', 'rotateCCW', 'rotateCCW', 'rotateCCW'])).toBe(identity);
    expect(run(['rotateCW', 'rotateCCW'])).toBe(identity);
    expect(run(['rotateCW', 'rotateCW', 'rotateCW'])).toBe(run(['rotateCCW']));
  });

  it('flips both ways into a half turn', () => {
    const both = run(['flipH', 'flipV']);
    expect(both).toEqual({ turns: 2, mirror: false });
    expect(run(['flipV', 'flipH'])).toBe(both);
    expect(px(transformPixels(known, both))).toEqual(px(ref.rotate180(known)));
  });

  it('makes a transpose of a clockwise turn and a horizontal flip', () => {
    const t = run(['rotateCW', 'flipH']);
    expect(t).toEqual({ turns: 3, mirror: true });
    expect(px(transformPixels(known, t))).toEqual(px(ref.transpose(known)));
    // The other order is the other diagonal.
    const u = run(['flipH', 'rotateCW']);
    expect(u).toEqual({ turns: 1, mirror: true });
    expect(px(transformPixels(known, u))).toEqual(px(ref.transverse(known)));
  });

  it('gives eight different results, one per transform', () => {
    const seen = new Set(all.map((t) => JSON.stringify(px(transformPixels(known, t)))));
    expect(seen.size).toBe(8);
  });

  it('composes all 64 pairs as applying one after the other does', () => {
    for (const a of all) {
      for (const b of all) {
        const once = transformPixels(known, compose(a, b));
        const twice = transformPixels(transformPixels(known, a), b);
        expect(px(once), `${transformKey(a)} then ${transformKey(b)}`).toEqual(px(twice));
      }
    }
  });

  it('is associative, has the identity as neutral element and an inverse for each', () => {
    for (const a of all) {
      expect(compose(identity, a)).toEqual(a);
      expect(compose(a, identity)).toEqual(a);
      expect(all.filter((b) => isIdentity(compose(a, b)))).toHaveLength(1);
      for (const b of all) for (const c of all) expect(compose(compose(a, b), c)).toBe(compose(a, compose(b, c)));
    }
  });

  it('agrees with operations: apply(t, op) is compose(t, op)', () => {
    for (const t of all) for (const op of operations) expect(apply(t, op)).toBe(compose(t, apply(identity, op)));
  });

  it('collapses any sequence of presses into one pass', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 50; n++) {
      const ops = Array.from({ length: 1 + Math.floor(random() * 12) }, () => operations[Math.floor(random() * 4)]);
      const stepwise = ops.reduce((p, op) => ref[op](p), known);
      expect(px(transformPixels(known, run(ops))), ops.join(' ')).toEqual(px(stepwise));
    }
  });

  it('returns shared frozen values', () => {
    const t = run(['rotateCW', 'flipV']);
    expect(Object.isFrozen(t)).toBe(true);
    expect(Object.isFrozen(identity)).toBe(true);
    expect(run(['flipV', 'rotateCCW'])).toBe(t);
  });
});

describe('sizes', () => {
  it('swaps width and height for odd turns only', () => {
    for (const t of all) {
      expect(swapsAxes(t)).toBe(t.turns % 2 === 1);
      expect(outputSize(t, 3, 2)).toEqual(t.turns % 2 ? { width: 2, height: 3 } : { width: 3, height: 2 });
    }
  });

  it('knows the identity', () => {
    expect(all.filter(isIdentity)).toEqual([identity]);
    expect(isIdentity({ turns: 0, mirror: false })).toBe(true);
  });
});

describe('canvas matrix and point mapping', () => {
  const transformPoint = (m: number[], x: number, y: number) => ({ x: m[0] * x + m[2] * y + m[4], y: m[1] * x + m[3] * y + m[5] });

  it('agrees with mapPoint at pixel centres, for every pixel and every transform', () => {
    for (const [w, h] of [
      [3, 2],
      [1, 1],
      [5, 9],
    ]) {
      for (const t of all) {
        const m = canvasMatrix(t, w, h);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const p = mapPoint(t, w, h, x, y);
            expect(transformPoint(m, x + 0.5, y + 0.5)).toEqual({ x: p.x + 0.5, y: p.y + 0.5 });
          }
        }
      }
    }
  });

  it('maps every corner of the input onto a corner of the output canvas', () => {
    for (const t of all) {
      const m = canvasMatrix(t, 3, 2);
      const { width, height } = outputSize(t, 3, 2);
      const corners = [
        [0, 0],
        [3, 0],
        [0, 2],
        [3, 2],
      ].map(([x, y]) => transformPoint(m, x, y));
      expect(new Set(corners.map((c) => `${c.x},${c.y}`))).toEqual(new Set(['0,0', `${width},0`, `0,${height}`, `${width},${height}`]));
      // And the corner pixels go where the pixel loop puts them.
      for (const [x, y] of [
        [0, 0],
        [2, 0],
        [0, 1],
        [2, 1],
      ]) {
        const p = mapPoint(t, 3, 2, x, y);
        expect(at(transformPixels(known, t), p.x, p.y)).toEqual(at(known, x, y));
      }
    }
  });

  it('writes no negative zeros', () => {
    for (const t of all) for (const v of canvasMatrix(t, 3, 2)) expect(Object.is(v, -0)).toBe(false);
  });

  it('is the identity matrix for the identity', () => {
    expect(canvasMatrix(identity, 640, 480)).toEqual([1, 0, 0, 1, 0, 0]);
    expect(canvasMatrix({ turns: 1, mirror: false }, 640, 480)).toEqual([0, 1, -1, 0, 480, 0]);
  });
});

describe('EXIF orientations', () => {
  // Upright is 3×2; a camera stores it as the orientation says, and the transform must undo it.
  const upright = known;
  const stored: Record<number, Pixels> = {
    1: upright,
    2: ref.flipH(upright), // mirrored horizontally
    3: ref.rotate180(upright), // rotated 180°
    4: ref.flipV(upright), // mirrored vertically
    5: ref.transpose(upright), // mirrored along the top-left–bottom-right diagonal
    6: ref.rotateCCW(upright), // needs 90° clockwise to be upright
    7: ref.transverse(upright), // mirrored along the other diagonal
    8: ref.rotateCW(upright), // needs 90° counter-clockwise
  };

  it('turns each of the eight stored layouts upright', () => {
    for (let o = 1; o <= 8; o++) {
      expect(px(transformPixels(stored[o], fromExifOrientation(o))), `orientation ${o}`).toEqual(px(upright));
    }
  });

  // The TIFF wording: which side of the upright picture the stored 0th row and 0th column are.
  const sides: Record<number, [string, string]> = {
    1: ['top', 'left'],
    2: ['top', 'right'],
    3: ['bottom', 'right'],
    4: ['bottom', 'left'],
    5: ['left', 'top'],
    6: ['right', 'top'],
    7: ['right', 'bottom'],
    8: ['left', 'bottom'],
  };

  it('puts the stored 0th row and column on the sides the standard names', () => {
    const s = image(4, 3, (x, y) => [x, y, 0, 255]); // any stored image, not square
    for (let o = 1; o <= 8; o++) {
      const t = fromExifOrientation(o);
      const { width, height } = outputSize(t, 4, 3);
      const side = (p: { x: number; y: number }) =>
        [p.y === 0 && 'top', p.y === height - 1 && 'bottom', p.x === 0 && 'left', p.x === width - 1 && 'right'].filter(Boolean);
      const out = transformPixels(s, t);
      const where = (x: number, y: number) => {
        for (let Y = 0; Y < height; Y++) for (let X = 0; X < width; X++) if (at(out, X, Y)[0] === x && at(out, X, Y)[1] === y) return { x: X, y: Y };
        throw new Error('lost a pixel');
      };
      for (let x = 0; x < 4; x++) expect(side(where(x, 0)), `orientation ${o}, row 0`).toContain(sides[o][0]);
      for (let y = 0; y < 3; y++) expect(side(where(0, y)), `orientation ${o}, column 0`).toContain(sides[o][1]);
    }
  });

  it('draws each stored layout upright through its canvas matrix, pixel centre by pixel centre', () => {
    for (let o = 1; o <= 8; o++) {
      const s = stored[o];
      const t = fromExifOrientation(o);
      const size = outputSize(t, s.width, s.height);
      expect(size, `orientation ${o}`).toEqual({ width: upright.width, height: upright.height });
      const [a, b, c, d, e, f] = canvasMatrix(t, s.width, s.height);
      const drawn = image(size.width, size.height, () => [0, 0, 0, 0]);
      for (let y = 0; y < s.height; y++) {
        for (let x = 0; x < s.width; x++) {
          const X = Math.floor(a * (x + 0.5) + c * (y + 0.5) + e);
          const Y = Math.floor(b * (x + 0.5) + d * (y + 0.5) + f);
          expect(X >= 0 && X < size.width && Y >= 0 && Y < size.height, `orientation ${o}: ${x},${y} lands inside`).toBe(true);
          drawn.data.set(at(s, x, y), (Y * size.width + X) * 4);
        }
      }
      // Every upright pixel is opaque, so a pixel drawn twice would leave another one empty.
      expect(px(drawn), `orientation ${o}`).toEqual(px(upright));
    }
  });

  it('takes anything else as upright', () => {
    for (const o of [0, 9, -1, 1.5, NaN, Infinity, 65535]) expect(fromExifOrientation(o)).toBe(identity);
  });
});

describe('transformPixels', () => {
  it('handles images larger than a tile, of odd sizes, exactly', () => {
    let seed = 1;
    const noise = image(130, 67, () => [0, 1, 2, 3].map(() => (seed = (seed * 69069 + 1) % 4294967296) >>> 24));
    const slow: Record<string, (p: Pixels) => Pixels> = {
      r0: (p) => p,
      r0m: ref.flipH,
      r1: ref.rotateCW,
      r1m: ref.transverse,
      r2: ref.rotate180,
      r2m: ref.flipV,
      r3: ref.rotateCCW,
      r3m: ref.transpose,
    };
    for (const t of all) expect(px(transformPixels(noise, t)), transformKey(t)).toEqual(px(slow[transformKey(t)](noise)));
  });

  it('takes pixels at any byte offset and leaves them unchanged', () => {
    const buffer = new Uint8ClampedArray(1 + known.data.length);
    buffer.set(known.data, 1);
    const src = { width: W, height: H, data: buffer.subarray(1) };
    const out = transformPixels(src, apply(identity, 'rotateCW'));
    expect(px(out)).toEqual(px(ref.rotateCW(known)));
    expect([...src.data]).toEqual([...known.data]);
  });

  it('handles one pixel and empty images', () => {
    const one = image(1, 1, () => [1, 2, 3, 4]);
    for (const t of all) expect(px(transformPixels(one, t))).toEqual(px(one));
    const empty = { width: 0, height: 5, data: new Uint8ClampedArray(0) };
    expect(transformPixels(empty, apply(identity, 'rotateCW'))).toEqual({ width: 5, height: 0, data: new Uint8ClampedArray(0) });
  });

  it('refuses data of the wrong length', () => {
    expect(() => transformPixels({ width: 3, height: 2, data: new Uint8ClampedArray(23) }, identity)).toThrow(RangeError);
    expect(() => transformPixels({ width: -1, height: -4, data: new Uint8ClampedArray(16) }, identity)).toThrow(RangeError);
  });
});

describe('keys', () => {
  it('writes a short key for each transform and reads it back', () => {
    expect(all.map(transformKey)).toEqual(['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m']);
    for (const t of all) expect(parseTransformKey(transformKey(t))).toEqual(t);
    expect(parseTransformKey('r1m')).toBe(run(['flipH', 'rotateCW']));
  });

  it('reads nothing else', () => {
    for (const s of ['', 'r', 'r4', 'R1', 'r1M', 'r1mm', ' r1', 'r1 ', 'm1', 'r-1', 'r01']) expect(parseTransformKey(s)).toBeUndefined();
  });
});

describe('steps', () => {
  it('names every transform by the fewest presses that make it', () => {
    for (const turns of [0, 1, 2, 3] as const) {
      for (const mirror of [false, true]) {
        const t = { turns, mirror };
        const s = steps(t);
        expect(s.reduce(apply, identity), `${turns} ${mirror}`).toEqual(t);
        expect(s.length).toBeLessThanOrEqual(turns === 2 && !mirror ? 2 : mirror && turns % 2 === 1 ? 2 : 1);
      }
    }
    expect(steps(identity)).toEqual([]);
    expect(steps(apply(identity, 'flipV'))).toEqual(['flipV']);
  });
});
