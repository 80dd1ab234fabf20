// The eight ways to flip and rotate an image (the dihedral group D4) as one small value. Any
// sequence of button presses collapses into one of them, so an image is resampled once, never
// once per click; and the EXIF orientation, the canvas matrix, the pixel loop and the SVG
// transform all derive from the one coordinate mapping below, so they cannot disagree.
//
// Coordinates are y-down, as on a canvas. A transform is "mirror, then turn": the input is
// first flipped horizontally when `mirror`, then turned clockwise `turns` quarter turns.

/** Quarter turns clockwise after an optional horizontal mirror: output = rotate(turns, mirror ? flipH(input) : input). */
export interface Transform {
  readonly turns: 0 | 1 | 2 | 3;
  readonly mirror: boolean;
}

export type Operation = 'flipH' | 'flipV' | 'rotateCW' | 'rotateCCW';

// The eight elements, frozen and shared: every function here returns one of them, so results
// may also be compared by reference and can never be mutated by a caller.
const elements: readonly Transform[] = ([0, 1, 2, 3] as const).flatMap((turns) => [
  Object.freeze({ turns, mirror: false }),
  Object.freeze({ turns, mirror: true }),
]);

/** `turns` may be any integer, negative too: it is taken modulo 4. */
function make(turns: number, mirror: boolean): Transform {
  return elements[(turns & 3) * 2 + (mirror ? 1 : 0)];
}

export const identity: Transform = make(0, false);

/** t followed by op (applied to the image already transformed by t). */
export function apply(t: Transform, op: Operation): Transform {
  switch (op) {
    case 'rotateCW':
      return make(t.turns + 1, t.mirror);
    case 'rotateCCW':
      return make(t.turns + 3, t.mirror);
    // A mirror after k turns is the same as -k turns after a mirror.
    case 'flipH':
      return make(-t.turns, !t.mirror);
    // A vertical flip is a horizontal one followed by a half turn.
    case 'flipV':
      return make(2 - t.turns, !t.mirror);
  }
}

/** a then b. */
export function compose(a: Transform, b: Transform): Transform {
  // b's mirror reverses the direction of a's turns (see flipH above).
  return make(b.turns + (b.mirror ? -a.turns : a.turns), a.mirror !== b.mirror);
}

export function isIdentity(t: Transform): boolean {
  return t.turns === 0 && !t.mirror;
}

/** The transform that undoes t. */
export function inverse(t: Transform): Transform {
  // A mirrored element is its own inverse; a pure turn is undone by the opposite turn.
  return t.mirror ? t : make(-t.turns, false);
}

/** True when width and height swap (odd turns). */
export function swapsAxes(t: Transform): boolean {
  return t.turns % 2 === 1;
}

/** Output size for an input of w×h. */
export function outputSize(t: Transform, w: number, h: number): { width: number; height: number } {
  return swapsAxes(t) ? { width: h, height: w } : { width: w, height: h };
}

// Indexed by orientation. The EXIF tag says how the stored rows and columns relate to the
// upright picture; each entry is the transform that undoes it. 5 and 7 are their own inverses,
// and 6 (stored turned left, as a phone held upright writes it) needs a clockwise turn.
const exifTransforms: readonly Transform[] = [
  make(0, false), // 1: upright
  make(0, true), // 2: mirrored horizontally
  make(2, false), // 3: turned 180°
  make(2, true), // 4: mirrored vertically
  make(3, true), // 5: transposed (mirrored along the top-left–bottom-right diagonal)
  make(1, false), // 6: needs 90° clockwise
  make(1, true), // 7: transverse (mirrored along the other diagonal)
  make(3, false), // 8: needs 90° counter-clockwise
];

/** EXIF orientation 1–8 → the transform that turns the stored pixels upright (as viewers display it). Invalid/unknown → identity. */
export function fromExifOrientation(o: number): Transform {
  return Number.isInteger(o) && o >= 1 && o <= 8 ? exifTransforms[o - 1] : identity;
}

/**
 * The one mapping everything else is built on, for a box of w×h: mirror x, then turn. Given
 * the box's size it maps continuous coordinates (the corner (0, 0) to an output corner); given
 * (w - 1)×(h - 1) it maps pixel indices, since a pixel's index is its centre less one half.
 * It subtracts and never negates, so no -0 comes out of it.
 */
function map(t: Transform, w: number, h: number, x: number, y: number): { x: number; y: number } {
  const mx = t.mirror ? w - x : x;
  switch (t.turns) {
    case 0:
      return { x: mx, y };
    case 1:
      return { x: h - y, y: mx };
    case 2:
      return { x: w - mx, y: h - y };
    case 3:
      return { x: y, y: w - mx };
  }
}

/** The 2D canvas matrix [a, b, c, d, e, f] (as for ctx.setTransform) that draws an input of w×h into an output canvas of outputSize(t, w, h) with transform t. */
export function canvasMatrix(t: Transform, w: number, h: number): [number, number, number, number, number, number] {
  // The mapping is affine: its images of the origin and of the two unit steps are the matrix.
  const o = map(t, w, h, 0, 0);
  const ex = map(t, w, h, 1, 0);
  const ey = map(t, w, h, 0, 1);
  return [ex.x - o.x, ex.y - o.y, ey.x - o.x, ey.y - o.y, o.x, o.y];
}

/** Where the input pixel (x, y) lands in the output, for an input of w×h. */
export function mapPoint(t: Transform, w: number, h: number, x: number, y: number): { x: number; y: number } {
  return map(t, w - 1, h - 1, x, y);
}

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row-major, exactly width × height × 4 bytes. */
  data: Uint8ClampedArray;
}

// Square blocks of this many pixels keep both the rows read and the columns written by a
// quarter turn within the CPU cache; a whole column of a large image would not be.
const TILE = 64;

/**
 * Transforms RGBA pixels (4 bytes per pixel, row-major) exactly; returns new pixels of
 * outputSize. Throws a RangeError if the data's length is not width × height × 4.
 */
export function transformPixels(src: Pixels, t: Transform): Pixels {
  const { width: w, height: h } = src;
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 0 || h < 0 || src.data.length !== w * h * 4) {
    throw new RangeError(`${src.data.length} bytes are not the RGBA pixels of ${w}×${h}`);
  }
  const size = outputSize(t, w, h);
  const out = new Uint8ClampedArray(w * h * 4);
  if (w === 0 || h === 0) return { ...size, data: out };

  // A pixel is moved as one 32-bit word; the byte order within it does not matter as it is
  // copied whole. Such a view needs 4-byte alignment, which a subarray may lack.
  const data = src.data.byteOffset % 4 === 0 ? src.data : src.data.slice();
  const from = new Uint32Array(data.buffer, data.byteOffset, w * h);
  const to = new Uint32Array(out.buffer);

  // The destination index is affine in (x, y): start + x·dx + y·dy.
  const index = (p: { x: number; y: number }) => p.y * size.width + p.x;
  const start = index(mapPoint(t, w, h, 0, 0));
  const dx = index(mapPoint(t, w, h, 1, 0)) - start;
  const dy = index(mapPoint(t, w, h, 0, 1)) - start;

  if (dx === 1) {
    // Rows stay rows in the same direction (identity, vertical flip): copy them whole.
    for (let y = 0; y < h; y++) to.set(from.subarray(y * w, y * w + w), start + y * dy);
  } else {
    for (let ty = 0; ty < h; ty += TILE) {
      const yEnd = Math.min(ty + TILE, h);
      for (let tx = 0; tx < w; tx += TILE) {
        const xEnd = Math.min(tx + TILE, w);
        for (let y = ty; y < yEnd; y++) {
          let i = y * w + tx;
          let j = start + tx * dx + y * dy;
          for (let x = tx; x < xEnd; x++, i++, j += dx) to[j] = from[i];
        }
      }
    }
  }
  return { ...size, data: out };
}

/** A short stable string for a transform ('r1m' etc.), for query strings and keys. */
export function transformKey(t: Transform): string {
  return `r${t.turns}${t.mirror ? 'm' : ''}`;
}

/** The transform of a transformKey, or undefined if `s` is not exactly one. */
export function parseTransformKey(s: string): Transform | undefined {
  const m = /^r([0-3])(m?)$/.exec(s);
  return m ? make(Number(m[1]), m[2] === 'm') : undefined;
}

/** The fewest button presses that make t, for telling people what was done: a mirror first
 * (a vertical flip when it comes with a half turn), then the turns. */
export function steps(t: Transform): Operation[] {
  if (t.mirror && t.turns === 2) return ['flipV'];
  const turns: Operation[][] = [[], ['rotateCW'], ['rotateCW', 'rotateCW'], ['rotateCCW']];
  return [...(t.mirror ? (['flipH'] as const) : []), ...turns[t.turns]];
}
