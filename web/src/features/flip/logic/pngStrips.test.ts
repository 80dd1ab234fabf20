import { crc32 as nodeCrc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, pngFromStrips } from './pngStrips';

/** Reads back our own PNGs (filter 0 rows): size and RGBA. */
function readPng(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  for (;;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    expect(view.getUint32(at + 8 + length), `${type} CRC`).toBe(nodeCrc32(png.subarray(at + 4, at + 8 + length)));
    if (type === 'IHDR') [width, height] = [view.getUint32(at + 8), view.getUint32(at + 12)];
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
    if (type === 'IEND') break;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba: number[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0);
    rgba.push(...raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)));
  }
  return { width, height, rgba };
}

const image = (width: number, height: number) =>
  Uint8ClampedArray.from({ length: width * height * 4 }, (_, i) => (i * 7 + (i >> 5)) & 0xff);

describe('PNG in strips', () => {
  it('gives the same pixels whatever the strip height', async () => {
    const [w, h] = [13, 11];
    const pixels = image(w, h);
    for (const rows of [1, 2, 4, 11, 50]) {
      const reads: number[] = [];
      const png = await pngFromStrips(w, h, rows, (y, n) => {
        reads.push(n);
        return pixels.subarray(y * w * 4, (y + n) * w * 4);
      });
      expect(readPng(png)).toEqual({ width: w, height: h, rgba: [...pixels] });
      expect(Math.max(...reads)).toBeLessThanOrEqual(rows);
      expect(reads.reduce((a, b) => a + b)).toBe(h);
    }
  });

  it('refuses a strip of the wrong size and a bad size', async () => {
    await expect(pngFromStrips(2, 2, 1, () => new Uint8ClampedArray(3))).rejects.toThrow(RangeError);
    await expect(pngFromStrips(0, 2, 1, () => new Uint8ClampedArray(0))).rejects.toThrow(RangeError);
  });

  it('computes the standard CRC-32', () => {
    for (const s of ['', 'IEND', 'The quick brown fox']) {
      const bytes = new TextEncoder().encode(s);
      expect(crc32(bytes)).toBe(nodeCrc32(bytes));
    }
  });
});
