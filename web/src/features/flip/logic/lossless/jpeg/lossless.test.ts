// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withExif } from '../../../../../lib/image/exif';
import { parseTransformKey, transformKey, transformPixels, type Pixels, type Transform } from '../../../../../lib/image/transform';
import { blockCoefficients, countAcSymbols, type Coefficients } from './coefficients';
import { readCoefficients } from './decode';
import { flipJpegLossless } from './index';
import { keptSize } from './rearrange';
import { djpeg, jpegtran, jpegtranArgs, makeJpeg, type JpegOptions } from '../../../../../../test/features/flip/logic/lossless/testJpegs';

const all = Object.keys(jpegtranArgs).map((k) => parseTransformKey(k)!);

function lossless(jpeg: Uint8Array, t: Transform) {
  const r = flipJpegLossless(jpeg, t, 'trim');
  if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
  return r;
}

const inputs: JpegOptions[] = [];
for (const sampling of ['4:4:4', '4:2:2', '4:2:0', 'grey'] as const) {
  for (const progressive of [false, true]) {
    inputs.push({ width: 48, height: 32, sampling, progressive });
    inputs.push({ width: 37, height: 21, sampling, progressive });
  }
}
inputs.push({ width: 50, height: 35, sampling: '4:2:0', restart: 1 });
inputs.push({ width: 50, height: 35, sampling: '4:2:2', progressive: true, restart: 2 });
inputs.push({ width: 9, height: 70, sampling: 'grey', restart: 3 });
inputs.push({ width: 300, height: 200, sampling: '4:2:0', progressive: true, quality: 97 });
// Larger baseline images, of many MCUs and odd sizes, where a quarter turn reads the blocks
// column by column: restart intervals, blocks full to their last positions (quality 97) and
// every sampling.
inputs.push({ width: 301, height: 203, sampling: '4:2:0', restart: 7 });
inputs.push({ width: 190, height: 131, sampling: '4:2:2', quality: 97 });
inputs.push({ width: 131, height: 77, sampling: '4:4:4', restart: 5 });
inputs.push({ width: 203, height: 157, sampling: 'grey', quality: 97 });

const name = (o: JpegOptions) =>
  `${o.width}×${o.height} ${o.sampling}${o.progressive ? ' progressive' : ' baseline'}${o.restart ? `, restart every ${o.restart}` : ''}`;

describe('lossless JPEG transforms: byte for byte what jpegtran -optimize -trim writes', () => {
  for (const o of inputs) {
    it(name(o), () => {
      const jpeg = makeJpeg(o);
      for (const t of all) {
        const ours = lossless(jpeg, t).bytes;
        const theirs = jpegtran(jpeg, jpegtranArgs[transformKey(t)]);
        expect(Buffer.from(ours).equals(Buffer.from(theirs)), transformKey(t)).toBe(true);
      }
    });
  }
});

// An exact inverse DCT in double precision with symmetric cosine tables, so that it commutes
// with mirrors and transposes (libjpeg's integer IDCT rounds differently in different orders).
const cosines = (() => {
  const c = new Float64Array(64);
  for (let x = 0; x < 4; x++) {
    for (let u = 0; u < 8; u++) {
      const v = (u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / 16) / 2;
      c[x * 8 + u] = v;
      c[(7 - x) * 8 + u] = u % 2 ? -v : v;
    }
  }
  return c;
})();

/** Each component's samples over its whole blocks, as grey RGBA pixels. */
function planes(c: Coefficients): Pixels[] {
  return c.components.map((comp) => {
    const width = comp.blocksWide * 8;
    const height = comp.blocksHigh * 8;
    const data = new Uint8ClampedArray(width * height * 4);
    const q = c.quant[comp.tq]!;
    for (let by = 0; by < comp.blocksHigh; by++) {
      for (let bx = 0; bx < comp.blocksWide; bx++) {
        const coefs = blockCoefficients(c, comp, by * comp.stride + bx);
        for (let y = 0; y < 8; y++) {
          for (let x = 0; x < 8; x++) {
            let sum = 0;
            for (let v = 0; v < 8; v++) {
              let row = 0;
              for (let u = 0; u < 8; u++) row += cosines[x * 8 + u] * coefs[v * 8 + u] * q[v * 8 + u];
              sum += cosines[y * 8 + v] * row;
            }
            const i = ((by * 8 + y) * width + bx * 8 + x) * 4;
            data.fill(Math.round(sum + 128), i, i + 3);
            data[i + 3] = 255;
          }
        }
      }
    }
    return { width, height, data };
  });
}

/** The top-left width × height of some pixels. */
function topLeft(p: Pixels, width: number, height: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) data.set(p.data.subarray(y * p.width * 4, (y * p.width + width) * 4), y * width * 4);
  return { width, height, data };
}

function maxDifference(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let max = 0;
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
  return max;
}

describe('the decoded output is the flipped decoded input', () => {
  for (const o of inputs.filter((o) => o.width < 100)) {
    it(name(o), () => {
      const jpeg = makeJpeg(o);
      const input = readCoefficients(jpeg);
      const inPlanes = planes(input);
      const inPixels = djpeg(jpeg);
      for (const t of all) {
        const out = lossless(jpeg, t);
        const kept = keptSize(input, t);
        // Each component, bit for bit: every block kept, partial edge blocks included.
        const outPlanes = planes(readCoefficients(out.bytes));
        inPlanes.forEach((plane, ci) => {
          const comp = readCoefficients(out.bytes).components[ci];
          const swap = t.turns % 2 === 1;
          const keptPlane = topLeft(plane, (swap ? comp.blocksHigh : comp.blocksWide) * 8, (swap ? comp.blocksWide : comp.blocksHigh) * 8);
          expect(maxDifference(outPlanes[ci], transformPixels(keptPlane, t)), `${transformKey(t)} component ${ci}`).toBe(0);
        });
        // And as libjpeg shows it, in RGB: its integer IDCT rounds by a unit or two differently
        // once rows and columns swap, and colour conversion can add one more.
        const shown = transformPixels(topLeft(inPixels, kept.width, kept.height), t);
        expect(maxDifference(djpeg(out.bytes), shown), transformKey(t)).toBeLessThanOrEqual(3);
      }
    });
  }
});

describe('coefficients read transposed, for a quarter turn', () => {
  for (const o of inputs) {
    it(name(o), () => {
      const jpeg = makeJpeg(o);
      const plain = readCoefficients(jpeg);
      const transposed = readCoefficients(jpeg, { transposed: true });
      transposed.components.forEach((c, ci) => {
        const counted = new Uint32Array(257);
        for (let y = 0; y < c.blocksHigh; y++) {
          for (let x = 0; x < c.blocksWide; x++) {
            const block = y * c.stride + x;
            // The same block, its AC coefficients in the transposed block's order...
            const a = blockCoefficients(transposed, c, block);
            const b = blockCoefficients(plain, plain.components[ci], block);
            expect(Array.from(a), `block ${x},${y} of component ${ci}`).toEqual(Array.from(b));
            countAcSymbols(transposed.ac, c.acStart[block], c.acCount[block], counted, 1);
          }
        }
        // ...and their symbols counted in that order.
        expect(Array.from(c.acSymbols), `component ${ci}`).toEqual(Array.from(counted));
      });
    });
  }
});

describe('round trips', () => {
  it('flipping twice gives back the coefficients, and four quarter turns too', () => {
    for (const o of inputs) {
      const jpeg = makeJpeg(o);
      const flipH = parseTransformKey('r0m')!;
      const once = lossless(jpeg, flipH).bytes;
      const twice = lossless(once, flipH).bytes;
      const original = readCoefficients(jpeg);
      const back = readCoefficients(twice);
      const kept = keptSize(original, flipH);
      expect([back.width, back.height]).toEqual([kept.width, kept.height]);
      back.components.forEach((c, ci) => {
        const src = original.components[ci];
        for (let y = 0; y < c.blocksHigh; y++) {
          for (let x = 0; x < c.blocksWide; x++) {
            const a = blockCoefficients(back, c, y * c.stride + x);
            const b = blockCoefficients(original, src, y * src.stride + x);
            expect(Array.from(a), `${name(o)} block ${x},${y} of component ${ci}`).toEqual(Array.from(b));
          }
        }
      });
      // An image of whole MCUs loses nothing at all: four right turns give back the same file.
      if (o.width % 16 === 0 && o.height % 16 === 0) {
        let turned = lossless(jpeg, parseTransformKey('r0')!).bytes;
        const start = turned;
        for (let i = 0; i < 4; i++) turned = lossless(turned, parseTransformKey('r1')!).bytes;
        expect(Buffer.from(turned).equals(Buffer.from(start))).toBe(true);
      }
    }
  });
});

describe('edges, metadata and what falls back', () => {
  const ragged = makeJpeg({ width: 37, height: 21, sampling: '4:2:0' });
  const whole = makeJpeg({ width: 48, height: 32, sampling: '4:2:0' });
  const flipH = parseTransformKey('r0m')!;

  it('trims the partial MCU column a horizontal flip would move to the left edge, and says so', () => {
    const r = lossless(ragged, flipH);
    expect([r.width, r.height, r.trimmed]).toEqual([32, 21, true]);
    const v = lossless(ragged, parseTransformKey('r2m')!);
    expect([v.width, v.height, v.trimmed]).toEqual([37, 16, true]);
    const transposed = lossless(ragged, parseTransformKey('r3m')!);
    expect([transposed.width, transposed.height, transposed.trimmed]).toEqual([21, 37, false]);
    expect(lossless(whole, flipH).trimmed).toBe(false);
  });

  it('"perfect" refuses to trim, so the caller re-encodes', () => {
    expect(flipJpegLossless(ragged, flipH, 'perfect')).toMatchObject({ ok: false, reason: 'edges' });
    expect(flipJpegLossless(ragged, parseTransformKey('r3m')!, 'perfect')).toMatchObject({ ok: true });
    expect(flipJpegLossless(whole, flipH, 'perfect')).toMatchObject({ ok: true, trimmed: false });
  });

  it('refuses an image smaller than one MCU on the axis it would trim', () => {
    const tiny = makeJpeg({ width: 10, height: 40, sampling: '4:2:0' });
    expect(flipJpegLossless(tiny, flipH, 'trim')).toMatchObject({ ok: false, reason: 'tooSmall' });
    expect(flipJpegLossless(tiny, parseTransformKey('r2m')!, 'trim')).toMatchObject({ ok: true });
  });

  it('folds the EXIF orientation into the transform and writes no orientation', () => {
    // Orientation 6: stored turned left, shown after a right turn.
    const orientation6 = Uint8Array.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]);
    const tagged = withExif(whole, orientation6);
    const r = lossless(tagged, parseTransformKey('r0')!);
    expect(Buffer.from(r.bytes).equals(Buffer.from(jpegtran(whole, ['-rotate', '90'])))).toBe(true);
    expect([r.width, r.height]).toEqual([32, 48]);
  });

  it('keeps the colour profile', () => {
    const icc = Uint8Array.from([0xff, 0xe2, 0, 18, ...new TextEncoder().encode('ICC_PROFILE\0'), 1, 1, 0xaa, 0xbb]);
    const withIcc = new Uint8Array([...whole.subarray(0, 2), ...icc, ...whole.subarray(2)]);
    const out = lossless(withIcc, flipH).bytes;
    expect(Buffer.from(out).includes(Buffer.from(icc))).toBe(true);
  });

  it('refuses arithmetic coding, 12-bit samples, CMYK and RGB with a reason', () => {
    const sof = (precision: number, ids: number[]) =>
      Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0, 8 + 3 * ids.length, precision, 0, 16, 0, 16, ids.length, ...ids.flatMap((id) => [id, 0x11, 0]), 0xff, 0xd9]);
    expect(flipJpegLossless(sof(12, [1, 2, 3]), flipH, 'trim')).toMatchObject({ ok: false, reason: 'precision' });
    expect(flipJpegLossless(sof(8, [1, 2, 3, 4]), flipH, 'trim')).toMatchObject({ ok: false, reason: 'colour' });
    expect(flipJpegLossless(sof(8, [0x52, 0x47, 0x42]), flipH, 'trim')).toMatchObject({ ok: false, reason: 'colour' });
    const arithmetic = whole.slice();
    const at = arithmetic.findIndex((b, i) => b === 0xff && arithmetic[i + 1] === 0xc0);
    arithmetic[at + 1] = 0xc9;
    expect(flipJpegLossless(arithmetic, flipH, 'trim')).toMatchObject({ ok: false, reason: 'arithmetic' });
  });

  it('never throws on damaged data: it answers with a reason or a file', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 200; i++) {
      const broken = whole.slice(0, Math.floor(random() * whole.length) + 2);
      for (let j = 0; j < 3; j++) broken[Math.floor(random() * broken.length)] = Math.floor(random() * 256);
      for (const t of [flipH, parseTransformKey('r1')!]) expect(typeof flipJpegLossless(broken, t, 'trim').ok).toBe('boolean');
    }
    expect(flipJpegLossless(new Uint8Array([1, 2, 3]), flipH, 'trim')).toMatchObject({ ok: false, reason: 'damaged' });
  });
});
