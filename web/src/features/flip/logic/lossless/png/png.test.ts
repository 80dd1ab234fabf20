// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { compose, fromExifOrientation, parseTransformKey, swapsAxes, transformKey, type Transform } from '../../../../../lib/image/transform';
import { flipPngLossless, type PngOptions } from './index';
import { chunk, chunks, decode, encodePng, palette, picture, rearranged, same, type Picture, type PngOptions as TestPngOptions } from '../../../../../../test/features/flip/logic/lossless/png/testPngs';

const all = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);
const limit: PngOptions = { maxPixels: 1e8 };

async function flipped(png: Uint8Array, t: Transform, options: PngOptions = limit) {
  const r = await flipPngLossless(png, t, options);
  if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
  return r;
}

const kinds: [colourType: number, depth: number][] = [
  [0, 1], [0, 2], [0, 4], [0, 8], [0, 16],
  [2, 8], [2, 16],
  [3, 1], [3, 2], [3, 4], [3, 8],
  [4, 8], [4, 16],
  [6, 8], [6, 16],
];

/** A test image of the kind, with its palette and some transparency where the kind has them. */
function sample(colourType: number, depth: number, width: number, height: number, seed: number, extra: TestPngOptions = {}): { png: Buffer; p: Picture } {
  const p = picture(width, height, depth, colourType, seed);
  const o: TestPngOptions = { ...extra };
  if (colourType === 3) {
    const n = 2 ** depth;
    o.palette = palette(n, seed);
    o.transparency = Uint8Array.from({ length: Math.ceil(n / 2) }, (_, i) => (i * 37) & 0xff);
  }
  // A transparent colour that some pixels have (the first pixel's), for grey and RGB.
  if (colourType === 0 || colourType === 2) {
    const first = p.samples.slice(0, colourType === 0 ? 1 : 3);
    o.transparency = Uint8Array.from(first.flatMap((v) => [v >> 8, v & 0xff]));
  }
  return { png: encodePng(p, o), p };
}

describe('lossless PNG: every colour type and depth, each of the 8 transforms, sample for sample', () => {
  for (const [colourType, depth] of kinds) {
    for (const interlaced of [false, true]) {
      it(`colour type ${colourType}, ${depth} bits${interlaced ? ', interlaced' : ''}`, async () => {
        const { png } = sample(colourType, depth, 13, 11, colourType * 100 + depth, { interlaced, idatSize: 40 });
        const input = decode(png);
        for (const t of all) {
          const r = await flipped(png, t);
          const out = chunks(r.bytes);
          expect(out[0].type).toBe('IHDR');
          expect([...out[0].data.subarray(8)], transformKey(t)).toEqual([depth, colourType, 0, 0, 0]);
          expect(same(decode(r.bytes), rearranged(input, t)), transformKey(t)).toBe(true);
          expect({ width: r.width, height: r.height }).toEqual(swapsAxes(t) ? { width: 11, height: 13 } : { width: 13, height: 11 });
          for (const type of ['PLTE', 'tRNS']) expect(out.find((c) => c.type === type)?.data).toEqual(chunks(png).find((c) => c.type === type)?.data);
        }
      });
    }
  }

  it('a crop, in the upright image before the transform, for every transform and several kinds', async () => {
    const crop = { x: 3, y: 2, width: 7, height: 5 };
    for (const [colourType, depth] of [[0, 1], [3, 4], [6, 16], [2, 8], [0, 2]]) {
      for (const interlaced of [false, true]) {
        const { png } = sample(colourType, depth, 17, 9, depth + colourType, { interlaced });
        const input = decode(png);
        for (const t of all) {
          const r = await flipped(png, t, { ...limit, crop });
          expect(same(decode(r.bytes), rearranged(input, t, crop)), `${colourType}/${depth} ${transformKey(t)}`).toBe(true);
        }
      }
    }
  });

  it('one-pixel and one-row images, and widths that end inside a byte', async () => {
    for (const [w, h] of [[1, 1], [1, 9], [9, 1], [3, 2], [17, 3]]) {
      for (const [colourType, depth] of [[0, 1], [0, 2], [0, 4], [3, 1], [6, 16]]) {
        const { png } = sample(colourType, depth, w, h, w * 7 + h);
        const input = decode(png);
        for (const t of all) expect(same(decode((await flipped(png, t)).bytes), rearranged(input, t)), `${w}×${h} ${colourType}/${depth} ${transformKey(t)}`).toBe(true);
      }
    }
  });
});

const text = (type: string, s: string) => chunk(type, Buffer.from(s, 'latin1'));

describe('lossless PNG: ancillary chunks', () => {
  const phys = Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0e, 0xc4, 1]); // 2835 × 3780 pixels a metre
  const before = [
    chunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])),
    chunk('cHRM', Buffer.alloc(32, 7)),
    chunk('iCCP', Buffer.from('profile\0\0xyz', 'latin1')),
    chunk('sBIT', Buffer.from([5, 6, 5])),
    chunk('pHYs', phys),
    chunk('sCAL', Buffer.from('\x011.5\x002.25', 'latin1')),
    text('tEXt', 'Title\0A picture'),
    chunk('tIME', Buffer.from([7, 234, 11, 28, 6, 0, 0])),
    chunk('prVt', Buffer.from('safe to copy')),
    chunk('prVT', Buffer.from('unsafe to copy')),
  ];
  const middle = [chunk('bKGD', Buffer.from([0, 1, 0, 2, 0, 3])), text('zTXt', 'Comment\0\0x')];
  const after = [text('iTXt', 'Author\0\0\0\0\0Someone'), text('tEXt', 'Late\0after the data')];
  const png = encodePng(picture(6, 4, 8, 2, 3), { before, middle, after, interlaced: true });

  it('keeps every chunk in its order, swaps pHYs and sCAL on a quarter turn, and names what it drops', async () => {
    for (const t of all) {
      const r = await flipped(png, t);
      const types = chunks(r.bytes).map((c) => c.type);
      expect(types).toEqual(['IHDR', 'gAMA', 'cHRM', 'iCCP', 'sBIT', 'pHYs', 'sCAL', 'tEXt', 'prVt', 'bKGD', 'zTXt', 'IDAT', 'iTXt', 'tEXt', 'IEND']);
      expect(r.dropped).toEqual(['tIME', 'prVT']);
      const byType = (type: string) => chunks(r.bytes).find((c) => c.type === type)!.data;
      expect([...byType('pHYs')]).toEqual(swapsAxes(t) ? [0, 0, 0x0e, 0xc4, 0, 0, 0x0b, 0x13, 1] : [...phys]);
      expect(byType('sCAL').toString('latin1')).toBe(swapsAxes(t) ? '\x012.25\x001.5' : '\x011.5\x002.25');
      for (const type of ['gAMA', 'cHRM', 'iCCP', 'sBIT', 'bKGD', 'zTXt', 'iTXt']) {
        expect(byType(type)).toEqual(chunks(png).find((c) => c.type === type)!.data);
      }
    }
  });

  it('an eXIf orientation before the data is folded in (the crop is in the upright image); eXIf is dropped', async () => {
    // Big-endian TIFF, one IFD entry: Orientation (0x0112) SHORT 1 = 6 (turn 90° clockwise to view).
    const tiff = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]);
    const p = picture(9, 5, 8, 6, 11);
    const plain = decode(encodePng(p));
    const upright = rearranged(plain, fromExifOrientation(6));
    const withExif = encodePng(p, { before: [chunk('eXIf', tiff)] });
    const crop = { x: 1, y: 2, width: 3, height: 6 };
    for (const t of all) {
      const r = await flipped(withExif, t, { ...limit, crop });
      expect(r.dropped).toEqual(['eXIf']);
      expect(same(decode(r.bytes), rearranged(upright, t, crop)), transformKey(t)).toBe(true);
    }
    // After the image data, browsers ignore it, and so does the flip.
    const late = encodePng(p, { after: [chunk('eXIf', tiff)] });
    expect(same(decode((await flipped(late, compose(all[0], all[2]))).bytes), rearranged(plain, all[2]))).toBe(true);
  });
});

describe('lossless PNG: large images, and where the platform has no CompressionStream', () => {
  // Over 1 MiB of rows: filtered and compressed band by band as they are rearranged.
  const large = sample(6, 16, 400, 330, 8, { interlaced: true });
  const crop = { x: 7, y: 50, width: 390, height: 201 };

  it('a large image, every transform, whole and cropped', async () => {
    const input = decode(large.png);
    for (const t of all) {
      expect(same(decode((await flipped(large.png, t)).bytes), rearranged(input, t)), transformKey(t)).toBe(true);
      expect(same(decode((await flipped(large.png, t, { ...limit, crop })).bytes), rearranged(input, t, crop)), transformKey(t)).toBe(true);
    }
  });

  it('deflates with fflate instead, to the same samples, small or large', async () => {
    const { png } = sample(6, 16, 9, 7, 5);
    vi.stubGlobal('CompressionStream', undefined);
    try {
      for (const t of all) expect(same(decode((await flipped(png, t)).bytes), rearranged(decode(png), t)), transformKey(t)).toBe(true);
      const t = all[3];
      expect(same(decode((await flipped(large.png, t)).bytes), rearranged(decode(large.png), t))).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
