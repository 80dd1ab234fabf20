import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { outputSize, parseTransformKey, transformPixels, type Pixels, type Transform } from '../../../../../lib/image/transform';
import { play } from '../../../../../../test/features/flip/logic/lossless/webp/animation';
import { decodeStill, libwebpCodec } from '../../../../../../test/features/flip/logic/lossless/webp/libwebp';
import { cropPixels } from './canvas';
import { flipWebp, type Rect } from './index';
import { readWebp } from './riff';
import { argbFromRgba, encodeVp8l } from './vp8l/encode';
import { chunk, writeWebp, type OutputFrame } from './write';

const dir = join(import.meta.dirname, '../../../../../../test/features/flip/logic/lossless/webp/corpus');
const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const names = readdirSync(dir).filter((n) => n.endsWith('.webp'));
const animations = names.filter((n) => n.startsWith('anim-'));
const transforms = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);
const options = { codec: libwebpCodec };

/** webpmux -info's frame table: width height alpha x y duration dispose blend size compression. */
function info(name: string): string[][] {
  return readFileSync(join(dir, name.replace('.webp', '.info')), 'utf8')
    .split('\n')
    .filter((l) => /^\s*\d+:/.test(l))
    .map((l) => l.trim().split(/\s+/).slice(1));
}

function same(a: Pixels, b: Pixels): boolean {
  return a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));
}

function meanDifference(a: Pixels, b: Pixels): number {
  return a.data.reduce((sum, v, i) => sum + Math.abs(v - b.data[i]), 0) / a.data.length;
}

describe('readWebp', () => {
  test.each(animations)('reads %s as webpmux does', (name) => {
    const file = readWebp(read(name));
    const frames = file.frames.map((f) => [f.width, f.height, f.x, f.y, f.duration, f.dispose ? 'background' : 'none', f.blend ? 'yes' : 'no', f.image.fourcc === 'VP8L' ? 'lossless' : 'lossy']);
    expect(frames).toEqual(info(name).map((r) => [r[0], r[1], r[3], r[4], r[5], r[6], r[7], r[9]].map((v) => (/^\d+$/.test(v) ? Number(v) : v))));
  });
});

describe('flipWebp on animations', () => {
  const crops: (Rect | undefined)[] = [undefined, { x: 3, y: 1, width: 19, height: 15 }, { x: 0, y: 0, width: 4, height: 4 }];
  for (const name of animations) {
    test.each(transforms.flatMap((t) => crops.map((c): [Transform, Rect | undefined] => [t, c])))(`${name}: %o cropped to %o shows every frame rearranged`, async (t, crop) => {
      const input = await play(read(name));
      const result = await flipWebp(read(name), t, { ...options, crop });
      if (!result.ok) throw new Error(result.detail);
      const output = await play(result.bytes);
      const c = crop ?? { x: 0, y: 0, width: input.width, height: input.height };
      expect({ width: output.width, height: output.height }).toEqual(outputSize(t, c.width, c.height));
      expect(output.anim).toEqual(input.anim);
      expect(output.frames.map((f) => [f.duration, f.blend, f.dispose, f.lossy])).toEqual(
        input.frames.map((f) => {
          // A frame outside the crop leaves one transparent blended pixel for its time on screen.
          const outside = f.x >= c.x + c.width || f.y >= c.y + c.height || f.x + f.width <= c.x || f.y + f.height <= c.y;
          return outside ? [f.duration, true, false, false] : [f.duration, f.blend, f.dispose, f.lossy];
        }),
      );
      expect(result.reencodedFrames).toBe(output.frames.filter((f) => f.lossy).length);
      input.shown.forEach((shown, i) => {
        const want = transformPixels(cropPixels(shown, c), t);
        // Re-encoded lossy frames are close, lossless ones exact.
        if (input.frames.some((f) => f.lossy)) expect(meanDifference(output.shown[i], want)).toBeLessThan(6);
        else expect(same(output.shown[i], want)).toBe(true);
      });
    });
  }
});

describe('a line cleared by a disposal is put back', () => {
  // Cropped one column from the left, B and C land at odd x and grow by a column: B's blended
  // extra column is cleared with B and took A's translucent pixels with it, so C (blended too)
  // must grow over it and write pixels that show as A's after integer blending.
  const frame = (x: number, colour: number[], blend: boolean, dispose: boolean): OutputFrame => {
    const px = Uint8Array.from({ length: 16 }, (_, i) => colour[i % 4]);
    return { x, y: 0, width: 2, height: 2, duration: 30, blend, dispose, data: [chunk('VP8L', encodeVp8l(argbFromRgba(px), 2, 2))] };
  };
  const input = writeWebp({
    width: 6,
    height: 2,
    alpha: true,
    anim: Uint8Array.from([0, 0, 0, 0, 0, 0]),
    frames: [frame(0, [201, 99, 37, 100], false, false), frame(2, [10, 20, 30, 255], true, true), frame(4, [90, 180, 250, 130], true, false)],
  });

  test.each(transforms)('%o', async (t) => {
    const crop = { x: 1, y: 0, width: 5, height: 2 };
    const result = await flipWebp(input, t, { ...options, crop });
    if (!result.ok) throw new Error(result.detail);
    const [before, after] = [await play(input), await play(result.bytes)];
    before.shown.forEach((shown, i) => expect(same(after.shown[i], transformPixels(cropPixels(shown, crop), t))).toBe(true));
  });
});

describe('flipWebp on a still lossless image', () => {
  test.each(transforms.flatMap((t) => [undefined, { x: 2, y: 3, width: 30, height: 17 }].map((c): [Transform, Rect | undefined] => [t, c])))(
    '%o cropped to %o is exact and keeps ICC, EXIF and XMP',
    async (t, crop) => {
      const bytes = read('still-lossless.webp');
      const input = await decodeStill(bytes);
      const result = await flipWebp(bytes, t, { ...options, crop });
      if (!result.ok) throw new Error(result.detail);
      expect(same(await decodeStill(result.bytes), transformPixels(cropPixels(input, crop ?? { x: 0, y: 0, width: 37, height: 23 }), t))).toBe(true);
      const before = readWebp(bytes);
      const after = readWebp(result.bytes);
      expect([after.iccp?.payload, after.exif?.payload, after.xmp?.payload]).toEqual([before.iccp?.payload, before.exif?.payload, before.xmp?.payload]);
      expect(after.frames[0].image.fourcc).toBe('VP8L');
      expect(after.flags).toBe(before.flags);
    },
  );

  test('leaves a still lossy image to the caller', async () => {
    expect(await flipWebp(read('still-lossy.webp'), transforms[1], options)).toMatchObject({ ok: false, reason: 'lossy' });
  });
});

describe('flipWebp refusals', () => {
  test('refuses past the pixel limit before decoding anything', async () => {
    const codec = { decode: vi.fn((still: Uint8Array) => libwebpCodec.decode(still)), encodeLossy: vi.fn((px: Pixels, q: number) => libwebpCodec.encodeLossy(px, q)) };
    const result = await flipWebp(read('anim-lossless.webp'), transforms[1], { codec, limits: { maxPixels: 6 * 29 * 19 - 1 } });
    expect(result).toMatchObject({ ok: false, reason: 'tooLarge' });
    expect(codec.decode).not.toHaveBeenCalled();
    expect((await flipWebp(read('anim-lossless.webp'), transforms[1], { codec, limits: { maxPixels: 6 * 29 * 19 } })).ok).toBe(true);
  });

  test.each(names)('every truncation of %s gives a reason, never an exception', async (name) => {
    const bytes = read(name);
    for (let n = 0; n < bytes.length; n += Math.max(1, Math.floor(bytes.length / 97))) {
      const result = await flipWebp(bytes.subarray(0, n), transforms[2], options);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(['damaged', 'decode', 'lossy']).toContain(result.reason);
    }
  });

  test('damaged bytes give a reason or a result, never an exception', async () => {
    const bytes = read('anim-mux.webp');
    for (let at = 12; at < bytes.length; at += 7) {
      const bad = bytes.slice();
      bad[at] ^= 0xa5;
      const result = await flipWebp(bad, transforms[3], options);
      if (!result.ok) expect(['damaged', 'decode']).toContain(result.reason);
    }
  });

  test("a decoder's failure is a reason", async () => {
    const codec = { ...libwebpCodec, decode: () => Promise.reject(new Error('no')) };
    expect(await flipWebp(read('anim-gif.webp'), transforms[1], { codec })).toMatchObject({ ok: false, reason: 'decode' });
  });
});
