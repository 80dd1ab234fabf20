// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { identity, parseTransformKey } from '../../../../../lib/image/transform';
import { flipped, makeGif, palette, picture, show, type TestGif } from '../../../../../../test/features/flip/logic/lossless/gif/testGifs';
import { parseGif } from './blocks';
import { flipGifLossless, type GifResult } from './index';

const limits = { maxPixels: 1e9 };
const small: TestGif = {
  width: 12,
  height: 9,
  minCodeSize: 3,
  globalTable: palette(8, 1),
  loop: 0,
  comment: 'hi',
  frames: [
    { width: 12, height: 9, indices: picture(12, 9, 8, 1), delay: 5 },
    { left: 3, top: 2, width: 6, height: 5, indices: picture(6, 5, 8, 2), localTable: palette(8, 3), transparent: 0, delay: 5 },
  ],
};

/** A failure that came from a check, not from an exception caught at the top. */
function expectReason(r: GifResult, reason: string) {
  expect(r.ok ? 'ok' : r.reason).toBe(reason);
  if (!r.ok) expect(r.detail).not.toMatch(/Error/);
}

describe('lossless GIF: damaged input gives a reason, never an exception', () => {
  it('a file cut anywhere: truncated inside a block, the blocks before it where it ends between two', () => {
    const gif = makeGif(small);
    const whole = flipped(gif, identity).bytes;
    const firstImage = gif.indexOf(0x2c, 13 + 24);
    for (let n = 0; n < gif.length; n++) {
      const r = flipGifLossless(gif.subarray(0, n), identity, undefined, limits);
      if (n < 6) expectReason(r, 'notGif');
      // Cut between the extensions before the first image: no image at all.
      else if (n <= firstImage && [37, 56, 62, 70].includes(n)) expectReason(r, 'damaged');
      else if (!r.ok) expectReason(r, 'truncated');
    }
    // Without its trailer, or with bytes after it that are no block, as browsers show it.
    expect(Buffer.from(flipped(gif.subarray(0, gif.length - 1), identity).bytes).equals(Buffer.from(whole))).toBe(true);
    const garbage = Uint8Array.from([...gif.subarray(0, gif.length - 1), 0x00, 0x17, 0x3b]);
    expect(Buffer.from(flipped(garbage, identity).bytes).equals(Buffer.from(whole))).toBe(true);
  });

  it('a code past the table', () => {
    const gif = makeGif({ ...small, frames: [small.frames[0]] });
    // The image data starts after the screen (13), the table (24) and the descriptor (10), its
    // extensions (loop 19, comment 6, graphic control 8) and the code size: clear (8), 1, then 15 where only 10 could follow.
    const data = 13 + 24 + 19 + 6 + 8 + 10 + 1;
    const broken = Uint8Array.from([...gif.subarray(0, data), 2, 0x18, 0x0f, 0, 0x3b]);
    const r = flipGifLossless(broken, identity, undefined, limits);
    expectReason(r, 'damaged');
    expect(r.ok || r.detail).toBe("image 1: code 15 is past the table's 10 entries");
  });

  it('random damage', () => {
    const gif = makeGif(small);
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    for (let i = 0; i < 1000; i++) {
      const copy = gif.slice();
      for (let k = 1 + random(3); k > 0; k--) copy[random(copy.length)] = random(256);
      const r = flipGifLossless(copy, parseTransformKey('r1')!, undefined, { maxPixels: 1e6 });
      if (!r.ok) expect(r.detail).not.toMatch(/Error/);
    }
  });

  it('not a GIF, and a minimum code size outside 2 to 8', () => {
    expectReason(flipGifLossless(new TextEncoder().encode('GIF90a and so on'), identity, undefined, limits), 'notGif');
    const gif = makeGif({ ...small, frames: [small.frames[0]] });
    const at = 13 + 24 + 19 + 6 + 8 + 10;
    expect(gif[at]).toBe(3);
    const nine = gif.slice();
    nine[at] = 9;
    expectReason(flipGifLossless(nine, identity, undefined, limits), 'damaged');
  });
});

describe('lossless GIF: a frame whose data ends early', () => {
  const frame = { width: 6, height: 4, delay: 9 };
  const check = (spec: TestGif, fill: number) => {
    const r = flipped(makeGif(spec), identity);
    const shown = show(r.bytes).frames[0];
    expect(shown.transparent).toBe(fill);
    const table = spec.globalTable!;
    const given = spec.frames[0].indices;
    for (let i = 0; i < 24; i++) {
      const pixel = Array.from(shown.layer.data.subarray(i * 4, i * 4 + 4));
      expect(pixel, `pixel ${i}`).toEqual(i < given.length && given[i] !== fill ? [...table.subarray(given[i] * 3, given[i] * 3 + 3), 255] : [0, 0, 0, 0]);
    }
    return r.bytes;
  };

  it('the rest is its transparent index, or a colour it does not use made transparent', () => {
    const indices = Uint8Array.of(0, 1, 3, 3, 1, 0, 0, 1, 3, 3);
    check({ width: 6, height: 4, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ ...frame, indices, transparent: 1 }] }, 1);
    const out = check({ version: 'GIF87a', width: 6, height: 4, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ width: 6, height: 4, indices }] }, 2);
    expect(Buffer.from(out.subarray(0, 6)).toString('latin1')).toBe('GIF89a');
    // A transparent index that 2-bit codes cannot hold marks nothing: an unused colour instead.
    check({ width: 6, height: 4, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ ...frame, indices, transparent: 200 }] }, 2);
  });

  it('refused when every colour is in use', () => {
    const spec: TestGif = { width: 6, height: 4, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ ...frame, indices: Uint8Array.of(0, 1, 2, 3) }] };
    expectReason(flipGifLossless(makeGif(spec), identity, undefined, limits), 'damaged');
  });
});

describe('lossless GIF: bounds', () => {
  it('refuses frames × screen pixels past the limit before decoding', () => {
    const gif = makeGif(small); // 2 frames of 12×9
    expect(flipGifLossless(gif, identity, undefined, { maxPixels: 216 }).ok).toBe(true);
    const r = flipGifLossless(gif, identity, undefined, { maxPixels: 215 });
    expectReason(r, 'tooLarge');
    expect(r.ok || r.detail).toBe('with frame 2 of 12×9, 216 pixels to decode, more than the 215 allowed');
  });

  it('keeps extensions in a row as one view, so that many small ones are not many objects', () => {
    const gif = makeGif(small);
    const comments = new Uint8Array(30_000).map((_, i) => [0x21, 0xfe, 0][i % 3]);
    const at = 13 + 24;
    const padded = Uint8Array.from([...gif.subarray(0, at), ...comments, ...gif.subarray(at)]);
    const parsed = parseGif(padded, 1e9);
    if ('reason' in parsed) throw new Error(parsed.detail);
    // The comments with the loop and the comment after them; then two images.
    expect(parsed.blocks.map((b) => b.kind)).toEqual(['extensions', 'image', 'image']);
    expect(Buffer.from(flipped(padded, identity).bytes).includes(Buffer.from(comments))).toBe(true);
  });

  it('counts a frame larger than the screen at its own size', () => {
    const gif = makeGif({ width: 4, height: 4, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ width: 100, height: 100, indices: picture(100, 100, 4, 1) }] });
    expectReason(flipGifLossless(gif, identity, undefined, { maxPixels: 9999 }), 'tooLarge');
    // Within the limit it is clipped to the screen.
    expect(flipGifLossless(gif, identity, undefined, { maxPixels: 10000 })).toMatchObject({ ok: true, width: 4, height: 4 });
  });

  it('refuses a crop that is not whole pixels within the screen', () => {
    const gif = makeGif(small);
    for (const crop of [
      { x: 0, y: 0, width: 13, height: 9 },
      { x: -1, y: 0, width: 5, height: 5 },
      { x: 1, y: 1, width: 0, height: 5 },
      { x: 0.5, y: 0, width: 5, height: 5 },
    ]) {
      expectReason(flipGifLossless(gif, identity, crop, limits), 'badCrop');
    }
  });
});
