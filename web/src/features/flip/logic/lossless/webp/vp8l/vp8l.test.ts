import { describe, expect, test } from 'vitest';
import { decodeStill } from '../../../../../../../test/features/flip/logic/lossless/webp/libwebp';
import { chunk, writeWebp } from '../write';
import { argbFromRgba, encodeVp8l, type Vp8lOptions } from './encode';
import { codeLengths } from './huffman';

// A small deterministic generator, so that a failure can be replayed.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s >>> 24;
  };
}

type Kind = 'random' | 'flat' | 'gradient' | 'alpha' | 'few colours' | 'repeating' | '2 colours' | '4 colours' | '16 colours' | '17 colours' | '256 colours';

function image(kind: Kind, w: number, h: number): Uint8Array {
  const next = random(w * 7919 + h);
  const px = new Uint8Array(w * h * 4);
  const palette = Array.from({ length: 256 }, () => [next(), next(), next(), next()]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const values: Record<Kind, () => number[]> = {
        random: () => [next(), next(), next(), next()],
        flat: () => [12, 200, 99, 255],
        gradient: () => [(x * 255) / Math.max(1, w - 1), (y * 255) / Math.max(1, h - 1), (x + y) & 255, 255],
        alpha: () => [x & 255, y & 255, 128, (x * 3 + y * 5) & 255],
        'few colours': () => palette[((x >> 2) % 5) ^ ((y >> 3) % 5)],
        '2 colours': () => palette[(x * 7 + y * 3) % 2],
        '4 colours': () => palette[(x + (y >> 1)) % 4],
        '16 colours': () => palette[next() % 16],
        '17 colours': () => palette[(x * y) % 17],
        '256 colours': () => palette[next()],
        repeating: () => [(x % 7) * 30, (y % 3) * 80, ((x + y) % 5) * 50, x % 11 === 0 ? 0 : 255],
      };
      px.set(values[kind]().map(Math.floor), i);
    }
  }
  return px;
}

async function roundTrip(rgba: Uint8Array, w: number, h: number, options: Vp8lOptions = {}): Promise<{ size: number; same: boolean }> {
  const payload = encodeVp8l(argbFromRgba(rgba), w, h, options);
  const file = writeWebp({ width: w, height: h, alpha: true, frames: [{ x: 0, y: 0, width: w, height: h, duration: 0, blend: false, dispose: false, data: [chunk('VP8L', payload)] }] });
  const decoded = await decodeStill(file);
  return { size: payload.length, same: decoded.width === w && decoded.height === h && Buffer.from(decoded.data).equals(Buffer.from(rgba)) };
}

describe('encodeVp8l, decoded by libwebp', () => {
  const sizes: [number, number][] = [[1, 1], [2, 1], [1, 3], [5, 3], [16, 16], [17, 9], [64, 64], [255, 2], [300, 200]];
  const kinds: Kind[] = ['random', 'flat', 'gradient', 'alpha', 'few colours', 'repeating', '2 colours', '4 colours', '16 colours', '17 colours', '256 colours'];
  test.each(kinds.flatMap((k) => sizes.map(([w, h]): [Kind, number, number] => [k, w, h])))('%s %i×%i comes back exactly', async (kind, w, h) => {
    expect((await roundTrip(image(kind, w, h), w, h)).same).toBe(true);
  });

  // Every path on its own: with and without the palette, with and without the colour cache.
  const paths: Vp8lOptions[] = [
    { palette: false, colourCache: 'never' },
    { palette: false, colourCache: 'always' },
    { palette: true, colourCache: 'never' },
    { palette: true, colourCache: 'always' },
  ];
  test.each(kinds.flatMap((k) => paths.map((p): [Kind, Vp8lOptions] => [k, p])))('%s 37×29 by %o comes back exactly', async (kind, path) => {
    expect((await roundTrip(image(kind, 37, 29), 37, 29, path)).same).toBe(true);
  });

  test('compresses what is compressible', async () => {
    expect((await roundTrip(image('flat', 300, 200), 300, 200)).size).toBeLessThan(100);
    expect((await roundTrip(image('gradient', 300, 200), 300, 200)).size).toBeLessThan(300 * 200);
  });

  test('a 4096-pixel-wide image (long copies and far distances)', async () => {
    const rgba = image('repeating', 4096, 3);
    rgba.set(image('random', 64, 1), 4096 * 4 + 100);
    expect((await roundTrip(rgba, 4096, 3)).same).toBe(true);
  });
});

describe('codeLengths', () => {
  test('limits lengths to 15 on very uneven counts, and the code stays complete', () => {
    const counts = Array.from({ length: 40 }, (_, i) => 2 ** Math.min(i, 30));
    const lengths = codeLengths(counts, 15);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(15);
    expect([...lengths].reduce((sum, l) => sum + 2 ** -l, 0)).toBe(1);
  });
});
