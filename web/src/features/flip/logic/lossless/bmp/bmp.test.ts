import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { outputSize, parseTransformKey, transformPixels, type Transform } from '../../../../../lib/image/transform';
import { decodeBmp, type Rgba } from '../../../../../../test/features/flip/logic/lossless/bmp/referenceBmp';
import { rgb32, rle4, rle8WithGap, topDown } from '../../../../../../test/features/flip/logic/lossless/bmp/variants';
import { flipBmpLossless, type Rect } from './index';

const dir = join(import.meta.dirname, '../../../../../../test/features/flip/logic/lossless/bmp/corpus');
const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const names = readdirSync(dir).filter((n) => n.endsWith('.bmp'));
const transforms = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

function cropped(img: Rgba, c: Rect): Rgba {
  const data = new Uint8ClampedArray(c.width * c.height * 4);
  for (let y = 0; y < c.height; y++) data.set(img.data.subarray(((c.y + y) * img.width + c.x) * 4, ((c.y + y) * img.width + c.x + c.width) * 4), y * c.width * 4);
  return { width: c.width, height: c.height, data };
}

describe('the reference decoder', () => {
  // ImageMagick 6 widens 4-bit fields by shifting (v·16), the reference by repeating bits (v·17).
  test.each(names)('reads %s as ImageMagick does', (name) => {
    const img = decodeBmp(read(name));
    const want = read(name.replace('.bmp', '.rgba'));
    const tolerance = name === 'bfa16.bmp' ? 15 : 0;
    expect(img.data.every((v, i) => Math.abs(v - want[i]) <= tolerance)).toBe(true);
  });
});

const files: [string, Uint8Array][] = [
  ...names.map((n): [string, Uint8Array] => [n, read(n)]),
  ['top-down p1', topDown(read('p1.bmp'))],
  ['top-down p4', topDown(read('p4.bmp'))],
  ['top-down bfa32', topDown(read('bfa32.bmp'))],
  ['rgb32', rgb32(read('rgb24.bmp'))],
  ['rle4', rle4(read('p4.bmp'))],
];

describe('flipBmpLossless', () => {
  const crops: (Rect | undefined)[] = [undefined, { x: 3, y: 1, width: 9, height: 5 }, { x: 12, y: 6, width: 1, height: 1 }];
  for (const [name, file] of files) {
    test.each(transforms.flatMap((t) => crops.map((c): [Transform, Rect | undefined] => [t, c])))(`${name}: %o cropped to %o equals the reference`, (t, crop) => {
      const input = decodeBmp(file);
      const result = flipBmpLossless(file, t, { crop });
      if (!result.ok) throw new Error(result.detail);
      const want = transformPixels(cropped(input, crop ?? { x: 0, y: 0, width: input.width, height: input.height }), t);
      const got = decodeBmp(result.bytes);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
      // Masks and palette, between the header and the pixels, are kept byte for byte.
      const headerEnd = 14 + u32(file, 14);
      expect(result.bytes.subarray(headerEnd, u32(file, 10))).toEqual(file.subarray(headerEnd, u32(file, 10)));
      expect(u32(result.bytes, 2)).toBe(result.bytes.length);
    });
  }

  test('RLE comes out uncompressed with the same depth and palette', () => {
    const result = flipBmpLossless(read('rle8.bmp'), transforms[1]);
    expect(result.ok && [result.decompressed, u32(result.bytes, 30), result.bytes[28]]).toEqual([true, 0, 8]);
  });

  test('swaps the resolution on a quarter turn', () => {
    const file = read('rgb24.bmp');
    new DataView(file.buffer).setUint32(38, 2835, true);
    new DataView(file.buffer).setUint32(42, 1417, true);
    const turned = flipBmpLossless(file, transforms[2]);
    const flipped = flipBmpLossless(file, transforms[1]);
    expect(turned.ok && [u32(turned.bytes, 38), u32(turned.bytes, 42)]).toEqual([1417, 2835]);
    expect(flipped.ok && [u32(flipped.bytes, 38), u32(flipped.bytes, 42)]).toEqual([2835, 1417]);
  });

  test("keeps a V5 header's ICC profile and points at it", () => {
    const file = read('icc24.bmp');
    const profile = file.subarray(14 + u32(file, 14 + 112), 14 + u32(file, 14 + 112) + u32(file, 14 + 116));
    const result = flipBmpLossless(file, transforms[3], { crop: { x: 0, y: 0, width: 5, height: 7 } });
    if (!result.ok) throw new Error(result.detail);
    const at = 14 + u32(result.bytes, 14 + 112);
    expect(result.bytes.subarray(at, at + profile.length)).toEqual(profile);
    expect(at + profile.length).toBe(result.bytes.length);
  });

  test('refuses RLE that leaves pixels unset', () => {
    expect(flipBmpLossless(rle8WithGap(read('rle8.bmp')), transforms[1])).toMatchObject({ ok: false, reason: 'rleGaps' });
  });

  test('refuses past the pixel limit before allocating', () => {
    expect(flipBmpLossless(read('p8.bmp'), transforms[1], { limits: { maxPixels: 90 } })).toMatchObject({ ok: false, reason: 'tooLarge' });
    expect(flipBmpLossless(read('p8.bmp'), transforms[1], { limits: { maxPixels: 91 } }).ok).toBe(true);
  });

  test.each([...names, 'rle4'])('gives a reason for every truncation of %s', (name) => {
    const file = name === 'rle4' ? rle4(read('p4.bmp')) : read(name);
    // A file cut inside an ICC profile or the RLE data's end code may still be whole enough.
    for (let n = 0; n < file.length - 2; n++) {
      const result = flipBmpLossless(file.subarray(0, n), transforms[3]);
      if (!result.ok) expect(['damaged', 'unsupported']).toContain(result.reason);
    }
    expect(flipBmpLossless(file.subarray(0, 30), transforms[3])).toMatchObject({ ok: false, reason: 'damaged' });
  });

  test('damaged headers give a reason, never an exception', () => {
    const file = read('p8.bmp');
    for (let at = 0; at < 54; at++) {
      for (const value of [0, 0x7f, 0xff]) {
        const bad = file.slice();
        bad[at] = value;
        expect(() => flipBmpLossless(bad, transforms[1])).not.toThrow();
      }
    }
  });

  test('sizes', () => {
    const result = flipBmpLossless(read('p1.bmp'), transforms[2], { crop: { x: 1, y: 2, width: 11, height: 3 } });
    expect(result.ok && [result.width, result.height]).toEqual([3, 11]);
    expect(outputSize(transforms[2], 11, 3)).toEqual({ width: 3, height: 11 });
  });
});
