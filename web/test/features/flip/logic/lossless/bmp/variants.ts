// BMP layouts ImageMagick does not write, made in the tests from its files: top-down rows,
// 32-bit BI_RGB, RLE4 (with both encoded and absolute runs) and RLE8 that skips pixels.
import { decodeBmp } from './referenceBmp';

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

function withPixels(file: Uint8Array, pixels: Uint8Array, edit: (v: DataView) => void): Uint8Array {
  const offset = u32(file, 10);
  const out = new Uint8Array(offset + pixels.length);
  out.set(file.subarray(0, offset));
  out.set(pixels, offset);
  const v = new DataView(out.buffer);
  v.setUint32(2, out.length, true);
  v.setUint32(34, pixels.length, true);
  edit(v);
  return out;
}

function rows(file: Uint8Array): { width: number; height: number; stride: number; offset: number } {
  const v = new DataView(file.buffer, file.byteOffset);
  const width = v.getInt32(18, true);
  const height = Math.abs(v.getInt32(22, true));
  const bpp = v.getUint16(28, true);
  return { width, height, stride: Math.floor((width * bpp + 31) / 32) * 4, offset: u32(file, 10) };
}

/** The same BMP (40-byte header or more, uncompressed) stored top row first. */
export function topDown(file: Uint8Array): Uint8Array {
  const { height, stride, offset } = rows(file);
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) px.set(file.subarray(offset + (height - 1 - y) * stride, offset + (height - y) * stride), y * stride);
  return withPixels(file, px, (v) => v.setInt32(22, -height, true));
}

/** A 24-bit BMP as 32-bit BI_RGB, the fourth byte of each pixel set to a pattern (unused by viewers). */
export function rgb32(file: Uint8Array): Uint8Array {
  const { width, height, stride, offset } = rows(file);
  const px = new Uint8Array(width * 4 * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      px.set(file.subarray(offset + y * stride + x * 3, offset + y * stride + x * 3 + 3), (y * width + x) * 4);
      px[(y * width + x) * 4 + 3] = (x * 31 + y) & 255;
    }
  }
  return withPixels(file, px, (v) => v.setUint16(28, 32, true));
}

/** A 4-bit BI_RGB BMP as RLE4: even rows in encoded runs of two, odd rows as one absolute run. */
export function rle4(file: Uint8Array): Uint8Array {
  const { width, height, stride, offset } = rows(file);
  const index = (x: number, y: number) => (file[offset + y * stride + (x >> 1)] >> (x % 2 ? 0 : 4)) & 15;
  const out: number[] = [];
  for (let y = 0; y < height; y++) {
    if (y % 2 === 1 && width >= 3) {
      const bytes: number[] = [];
      for (let x = 0; x < width; x += 2) bytes.push((index(x, y) << 4) | (x + 1 < width ? index(x + 1, y) : 0));
      out.push(0, width, ...bytes, ...(bytes.length % 2 ? [0] : []));
    } else {
      for (let x = 0; x < width; x += 2) out.push(Math.min(2, width - x), (index(x, y) << 4) | (x + 1 < width ? index(x + 1, y) : 0));
    }
    out.push(0, 0);
  }
  out.push(0, 1);
  return withPixels(file, Uint8Array.from(out), (v) => v.setUint32(30, 2, true));
}

/** An 8-bit RLE BMP whose first row skips its last pixels with a delta. */
export function rle8WithGap(file: Uint8Array): Uint8Array {
  const { width } = decodeBmp(file);
  return withPixels(file, Uint8Array.from([width - 2, 3, 0, 2, 2, 0, 0, 1]), (v) => v.setUint32(30, 1, true));
}
