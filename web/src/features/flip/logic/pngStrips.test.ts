import { PNG } from 'pngjs';
import { crc32 as nodeCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from './lossless/png/chunks';
import { pngFromStrips } from './pngStrips';

/** Reads a PNG back with pngjs, an independent decoder (which checks every CRC). */
function readPng(png: Uint8Array) {
  const { width, height, data } = PNG.sync.read(Buffer.from(png), { checkCRC: true });
  return { width, height, rgba: [...data] };
}

const image = (width: number, height: number) =>
  Uint8ClampedArray.from({ length: width * height * 4 }, (_, i) => (i * 7 + (i >> 5) + ((i * i) >> 11)) & 0xff);

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

  // Past 1 MiB of rows the encoder compresses band by band as the strips come (fflate's
  // streaming compressor, used here before, could write streams decoders refuse: fflate #260).
  it('writes a large image band by band, decodable', async () => {
    const [w, h] = [700, 420];
    const pixels = image(w, h);
    const png = await pngFromStrips(w, h, 37, (y, n) => pixels.slice(y * w * 4, (y + n) * w * 4));
    const back = readPng(png);
    expect([back.width, back.height]).toEqual([w, h]);
    expect(back.rgba.every((v, i) => v === pixels[i])).toBe(true);
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
