// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseTransformKey, transformKey, type Transform } from '../../../../../lib/image/transform';
import { flipPngLossless } from './index';
import { encodeApng, expectedFrames, readApng, shownFrames, type ApngOptions, type TestFrame } from '../../../../../../test/features/flip/logic/lossless/png/testApngs';
import { palette, picture, same, type Rect } from '../../../../../../test/features/flip/logic/lossless/png/testPngs';

const all = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);

async function flipped(apng: Uint8Array, t: Transform, crop?: Rect) {
  const r = await flipPngLossless(apng, t, { maxPixels: 1e6, crop });
  if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
  return r;
}

/** Frames of the given kind at these places, with every disposal and blending. */
function frames(colourType: number, depth: number, places: [x: number, y: number, w: number, h: number, dispose: 0 | 1 | 2, blend: 0 | 1][]): TestFrame[] {
  return places.map(([x, y, w, h, dispose, blend], n) => ({ picture: picture(w, h, depth, colourType, 50 + n), x, y, delay: [n + 1, n % 2 ? 100 : 1000], dispose, blend }));
}

/** Checks a rewritten APNG against the original: loop count, delays, disposal, blending, sequence, and every frame as shown. */
async function check(apng: Buffer, t: Transform, crop: Rect | undefined, max: number) {
  const r = await flipped(apng, t, crop);
  const before = readApng(apng);
  const after = readApng(r.bytes);
  const what = `${transformKey(t)}${crop ? ' cropped' : ''}`;
  expect(r.frames, what).toBe(before.frames.length);
  expect(after.count).toBe(before.count);
  expect(after.plays).toBe(before.plays);
  expect(after.sequences).toEqual(after.sequences.map((_, i) => i));
  expect(after.frames.map((f) => f.delay)).toEqual(before.frames.map((f) => f.delay));
  const expected = expectedFrames(apng, t, crop, max);
  const shown = shownFrames(r.bytes, max);
  expected.forEach((e, i) => expect(same(shown[i], e), `${what}, frame ${i}`).toBe(true));
  return { r, before, after };
}

describe('lossless APNG: every frame rearranged with its control', () => {
  const places: Parameters<typeof frames>[2] = [
    [0, 0, 20, 14, 0, 0],
    [3, 2, 5, 4, 0, 1],
    [12, 8, 8, 6, 1, 0],
    [0, 0, 20, 14, 2, 1],
    [0, 0, 2, 2, 0, 0],
    [15, 1, 4, 3, 2, 0],
  ];
  const crop = { x: 4, y: 3, width: 10, height: 9 };

  it('RGBA, the still image the first frame: all 8 transforms, whole and cropped (a frame outside the crop)', async () => {
    const apng = encodeApng({ width: 20, height: 14, plays: 3, frames: frames(6, 8, places) });
    for (const t of all) {
      await check(apng, t, undefined, 255);
      const { after } = await check(apng, t, crop, 255);
      // The 2×2 frame at 0,0 and the 4×3 at 15,1 miss the crop: 1×1, transparent, blended over.
      for (const i of [4, 5]) expect(after.frames[i]).toMatchObject({ rect: { width: 1, height: 1, x: 0, y: 0 }, dispose: 0, blend: 1 });
      // Dispositions and blending of the frames inside are kept.
      expect(after.frames.slice(0, 4).map((f) => [f.dispose, f.blend])).toEqual([[0, 0], [0, 1], [1, 0], [2, 1]]);
    }
  });

  it('places: a frame\'s offset and size turn with the canvas', async () => {
    const apng = encodeApng({ width: 20, height: 14, plays: 0, frames: frames(6, 8, places) });
    const quarter = await flipped(apng, parseTransformKey('r1')!);
    // Clockwise: x' = 14 - (y + h), y' = x; the size swaps.
    expect(readApng(quarter.bytes).frames[2].rect).toEqual({ x: 14 - (8 + 6), y: 12, width: 6, height: 8 });
    expect(readApng(quarter.bytes).frames[1].rect).toEqual({ x: 14 - (2 + 4), y: 3, width: 4, height: 5 });
  });

  it('a still image that is not a frame, a palette with a transparent entry, interlaced frames, 16-bit grey and alpha', async () => {
    const cases: [ApngOptions, number][] = [
      [{ width: 20, height: 14, plays: 1, hidden: picture(20, 14, 4, 3, 9), frames: frames(3, 4, places), palette: palette(16, 4), transparency: Uint8Array.from([255, 0, 128]) }, 255],
      [{ width: 20, height: 14, plays: 0, frames: frames(4, 16, places), interlaced: true }, 65535],
      [{ width: 20, height: 14, plays: 2, frames: frames(0, 2, places), transparency: Uint8Array.from([0, 1]) }, 3],
    ];
    for (const [o, max] of cases) {
      const apng = encodeApng(o);
      for (const t of all) {
        await check(apng, t, undefined, max);
        await check(apng, t, crop, max);
      }
    }
  });

  it('without transparency, a frame outside the crop copies the pixel the frame before it left', async () => {
    const opaque = (places2: Parameters<typeof frames>[2]) => encodeApng({ width: 20, height: 14, plays: 0, frames: frames(3, 8, places2), palette: palette(256, 5) });
    const apng = opaque([
      [0, 0, 20, 14, 0, 0],
      [5, 4, 3, 3, 0, 1],
      [0, 0, 2, 2, 1, 0],
      [1, 1, 2, 2, 0, 0],
      [6, 6, 4, 4, 0, 1],
    ]);
    for (const t of all) {
      const { after } = await check(apng, t, crop, 255);
      expect(after.frames[2].rect).toMatchObject({ ...after.frames[1].rect, width: 1, height: 1 });
      expect(after.frames[3].rect).toMatchObject({ ...after.frames[1].rect, width: 1, height: 1 });
    }
    // After a frame that was disposed of, the pixel it left is not known: refused, with a reason.
    const disposed = opaque([
      [0, 0, 20, 14, 0, 0],
      [5, 4, 3, 3, 1, 1],
      [0, 0, 2, 2, 0, 0],
    ]);
    expect(await flipPngLossless(disposed, all[1], { maxPixels: 1e6, crop })).toMatchObject({ ok: false, reason: 'animationCrop' });
    // The first frame shown, when the still image is not part of the animation.
    const first = encodeApng({ width: 20, height: 14, plays: 0, hidden: picture(20, 14, 8, 3, 1), frames: frames(3, 8, [[0, 0, 2, 2, 0, 0]]), palette: palette(256, 5) });
    expect(await flipPngLossless(first, all[1], { maxPixels: 1e6, crop })).toMatchObject({ ok: false, reason: 'animationCrop' });
  });

  it('refuses past the pixel limit, counting every frame, before decoding', async () => {
    const apng = encodeApng({ width: 20, height: 14, plays: 0, frames: frames(6, 8, places) });
    const pixels = 20 * 14 * 2 + 5 * 4 + 8 * 6 + 2 * 2 + 4 * 3;
    expect((await flipPngLossless(apng, all[1], { maxPixels: pixels })).ok).toBe(true);
    expect(await flipPngLossless(apng, all[1], { maxPixels: pixels - 1 })).toMatchObject({ ok: false, reason: 'tooLarge' });
  });
});
