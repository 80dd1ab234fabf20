// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseTransformKey, transformKey, type Transform } from '../../../../../lib/image/transform';
import { expectLossless, flipped, makeGif, palette, picture, show, type TestGif } from '../../../../../../test/features/flip/logic/lossless/gif/testGifs';

const all: Transform[] = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);

/** Three frames over a 23×17 screen: whole, at an offset with its own table, interlaced. */
function animation(minCodeSize: number, colours = 1 << minCodeSize, full: 'clear' | 'defer' = 'clear'): TestGif {
  return {
    width: 23,
    height: 17,
    minCodeSize,
    globalTable: palette(colours, 1),
    loop: 0,
    full,
    frames: [
      { width: 23, height: 17, indices: picture(23, 17, colours, 1), delay: 10 },
      { left: 5, top: 3, width: 11, height: 9, indices: picture(11, 9, colours, 2), localTable: palette(colours, 2), transparent: 1, disposal: 2, delay: 20 },
      { left: 2, top: 1, width: 19, height: 14, indices: picture(19, 14, colours, 3), interlaced: true, disposal: 3, delay: 7, userInput: true },
    ],
  };
}

describe('lossless GIF: every frame rearranged exactly, nothing else changed', () => {
  for (let m = 2; m <= 8; m++) {
    it(`minimum code size ${m}, all eight transforms`, () => {
      const gif = makeGif(animation(m));
      for (const t of all) expectLossless(gif, t);
    });
  }

  it('a 2-colour table with minimum code size 2', () => {
    const gif = makeGif(animation(2, 2));
    for (const t of all) expectLossless(gif, t);
  });

  it('full code tables, cleared or deferred, and one frame of 1×1 and one a single row', () => {
    for (const full of ['clear', 'defer'] as const) {
      const gif = makeGif({
        width: 200,
        height: 150,
        minCodeSize: 8,
        globalTable: palette(256, 4),
        full,
        frames: [
          { width: 200, height: 150, indices: picture(200, 150, 256, 5), delay: 4 },
          { left: 199, top: 149, width: 1, height: 1, indices: Uint8Array.of(9), delay: 4 },
          { left: 0, top: 70, width: 200, height: 1, indices: picture(200, 1, 256, 6), delay: 4 },
        ],
      });
      for (const t of all) expectLossless(gif, t);
    }
  });

  it('keeps the loop count, the comments and the user-input flag, and never interlaces', () => {
    const input = makeGif({ ...animation(4), loop: 3, comment: 'made by hand' });
    const out = flipped(input, parseTransformKey('r1')!).bytes;
    expect(show(out).loop).toBe(3);
    expect(Buffer.from(out).includes(Buffer.from('made by hand'))).toBe(true);
    // The third frame's graphic control: user input (bit 1) and "restore to previous" (3).
    const controls = [...out.keys()].filter((i) => out[i] === 0x21 && out[i + 1] === 0xf9 && out[i + 2] === 4).map((i) => out[i + 3]);
    expect(controls).toEqual([0, (2 << 2) | 1, (3 << 2) | 2]);
  });

  it('a still GIF87a stays GIF87a, with its size swapped by a quarter turn', () => {
    const input = makeGif({ version: 'GIF87a', width: 9, height: 4, minCodeSize: 3, globalTable: palette(8, 7), frames: [{ width: 9, height: 4, indices: picture(9, 4, 8, 7) }] });
    const r = flipped(input, parseTransformKey('r3')!);
    expect(Buffer.from(r.bytes.subarray(0, 6)).toString('latin1')).toBe('GIF87a');
    expect({ width: r.width, height: r.height, frames: r.frames }).toEqual({ width: 4, height: 9, frames: 1 });
    for (const t of all) expectLossless(input, t);
  });

  it('a screen given as 0×0 is the first frame’s extent', () => {
    const input = makeGif({ width: 0, height: 0, minCodeSize: 2, globalTable: palette(4, 1), frames: [{ left: 2, top: 1, width: 5, height: 3, indices: picture(5, 3, 4, 1) }] });
    expect(flipped(input, parseTransformKey('r1')!)).toMatchObject({ width: 4, height: 7 });
  });

  it('inverts the pixel aspect ratio on a quarter turn', () => {
    // 49 stands for (49 + 15) / 64 = 1; 113 for 2, whose inverse 1/2 is 17.
    const aspectOf = (aspect: number, key: string) => {
      const input = makeGif({ ...animation(3), aspect });
      return flipped(input, parseTransformKey(key)!).bytes[12];
    };
    expect([aspectOf(0, 'r1'), aspectOf(49, 'r1'), aspectOf(113, 'r3m'), aspectOf(113, 'r2')]).toEqual([0, 49, 17, 113]);
  });

  it('drops plain-text extensions, which no browser draws, and nothing else', () => {
    const spec = animation(5);
    const withText = flipped(makeGif({ ...spec, plainText: true }), parseTransformKey('r2m')!).bytes;
    const without = flipped(makeGif(spec), parseTransformKey('r2m')!).bytes;
    expect(Buffer.from(withText).equals(Buffer.from(without))).toBe(true);
  });
});

describe('lossless GIF: the crop applies to every frame', () => {
  const gif = makeGif(animation(6));
  const crops = [
    { x: 0, y: 0, width: 23, height: 17 },
    { x: 4, y: 2, width: 13, height: 10 }, // cuts every frame
    { x: 16, y: 0, width: 7, height: 17 }, // wholly misses the second frame
    { x: 0, y: 13, width: 23, height: 4 }, // misses the second
    { x: 22, y: 16, width: 1, height: 1 },
  ];
  for (const crop of crops) {
    it(`${crop.width}×${crop.height} at (${crop.x}, ${crop.y}), all eight transforms`, () => {
      for (const t of all) expectLossless(gif, t, crop);
    });
  }

  it('a frame wholly outside keeps its delay; a GIF87a that needs a graphic control for it becomes GIF89a', () => {
    const input = makeGif({
      version: 'GIF87a',
      width: 10,
      height: 10,
      minCodeSize: 2,
      globalTable: palette(4, 1),
      frames: [
        { width: 10, height: 10, indices: picture(10, 10, 4, 1) },
        { left: 8, top: 8, width: 2, height: 2, indices: picture(2, 2, 4, 2), localTable: palette(4, 9) },
      ],
    });
    const r = flipped(input, parseTransformKey('r1m')!, { x: 0, y: 0, width: 5, height: 5 });
    expect(Buffer.from(r.bytes.subarray(0, 6)).toString('latin1')).toBe('GIF89a');
    expectLossless(input, parseTransformKey('r1m')!, { x: 0, y: 0, width: 5, height: 5 });
  });

  it('transform keys cover the whole group', () => {
    expect(new Set(all.map(transformKey)).size).toBe(8);
  });
});
