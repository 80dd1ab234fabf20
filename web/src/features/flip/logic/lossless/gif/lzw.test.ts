// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeGif, palette, picture } from '../../../../../../test/features/flip/logic/lossless/gif/testGifs';
import { decodeLzw, LzwEncoder } from './lzw';

/** The image data of a one-frame GIF from the test encoder: after the descriptor and code size. */
function testData(indices: Uint8Array, width: number, minCodeSize: number, full: 'clear' | 'defer'): Uint8Array {
  const gif = makeGif({ width, height: indices.length / width, minCodeSize, globalTable: palette(1 << minCodeSize, 1), full, frames: [{ width, height: indices.length / width, indices }] });
  return gif.subarray(13 + 3 * (1 << minCodeSize) + 11);
}

describe('GIF LZW', () => {
  it('decodes what it encodes, for every minimum code size and length', () => {
    const encoder = new LzwEncoder();
    for (let m = 2; m <= 8; m++) {
      for (const n of [0, 1, 2, 3, 100, 5000, 70_000]) {
        const indices = picture(n, 1, 1 << m, m + n);
        const out = new Uint8Array(n);
        expect(decodeLzw(encoder.encode(indices, m), 0, m, out), `${m} bits, ${n} pixels`).toEqual({ decoded: n });
        expect(Buffer.from(out).equals(Buffer.from(indices)), `${m} bits, ${n} pixels`).toBe(true);
      }
    }
  });

  it('decodes another encoder’s codes, with a clear when the table is full or without (a deferred clear)', () => {
    for (const full of ['clear', 'defer'] as const) {
      for (const m of [2, 5, 8]) {
        const indices = picture(300, 100, 1 << m, m);
        const out = new Uint8Array(indices.length);
        expect(decodeLzw(testData(indices, 300, m, full), 0, m, out)).toEqual({ decoded: indices.length });
        expect(Buffer.from(out).equals(Buffer.from(indices)), `${full}, ${m} bits`).toBe(true);
      }
    }
  });

  it('stops at the frame’s pixel count, and reports data that ends early', () => {
    const indices = picture(50, 20, 16, 3);
    const data = new LzwEncoder().encode(indices, 4);
    const fewer = new Uint8Array(999);
    expect(decodeLzw(data, 0, 4, fewer)).toEqual({ decoded: 999 });
    expect(Buffer.from(fewer).equals(Buffer.from(indices.subarray(0, 999)))).toBe(true);
    expect(decodeLzw(data, 0, 4, new Uint8Array(1001))).toEqual({ decoded: 1000 });
    // Only a clear code (8) and an end code (9) in 4 bits each: nothing decoded.
    expect(decodeLzw(Uint8Array.of(1, 0x98, 0), 0, 3, new Uint8Array(10))).toEqual({ decoded: 0 });
  });

  it('refuses a code past the table', () => {
    // 3-bit codes, least significant bit first: clear (4), 1, then 7 where only 6 could follow.
    const codes = [4, 1, 7];
    let v = 0;
    codes.forEach((c, i) => (v |= c << (3 * i)));
    expect(decodeLzw(Uint8Array.of(2, v & 0xff, v >> 8, 0), 0, 2, new Uint8Array(10))).toEqual({ error: "code 7 is past the table's 6 entries" });
    // A first code that is not a colour.
    expect(decodeLzw(Uint8Array.of(1, 4 | (6 << 3), 0), 0, 2, new Uint8Array(10))).toMatchObject({ error: expect.stringContaining('code 6') as unknown });
  });
});
