// The pixel array rearranged: each pixel's bits (1, 4, 8, 16, 24 or 32 of them) are moved
// whole, never interpreted, so palettes, bit-field masks and unused bits come out as they went in.
import { mapPoint, outputSize, type Transform } from '../../../../../lib/image/transform';
import { rowStride } from './header';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Stored pixels: packed rows of `stride` bytes from `offset`, the top row first when topDown. */
export interface PixelArray {
  bytes: Uint8Array;
  offset: number;
  stride: number;
  width: number;
  height: number;
  bitsPerPixel: number;
  topDown: boolean;
}

/** The crop (in the source's upright coordinates) of `src`, transformed, packed as BI_RGB rows, the top one first when `topDown`. */
export function rearrange(src: PixelArray, t: Transform, crop: Rect, topDown: boolean): { data: Uint8Array; width: number; height: number } {
  const bpp = src.bitsPerPixel;
  const size = outputSize(t, crop.width, crop.height);
  const stride = rowStride(size.width, bpp);
  const data = new Uint8Array(stride * size.height);
  // The output's row and column are affine in the crop's (x, y).
  const o = mapPoint(t, crop.width, crop.height, 0, 0);
  const ex = mapPoint(t, crop.width, crop.height, 1, 0);
  const ey = mapPoint(t, crop.width, crop.height, 0, 1);
  const [xdx, ydx, xdy, ydy] = [ex.x - o.x, ex.y - o.y, ey.x - o.x, ey.y - o.y];
  const srcRow = (y: number) => src.offset + (src.topDown ? y : src.height - 1 - y) * src.stride;
  const dstRow = (y: number) => (topDown ? y : size.height - 1 - y) * stride;

  if (bpp >= 8) {
    const n = bpp >> 3;
    for (let y = 0; y < crop.height; y++) {
      const from = srcRow(crop.y + y) + crop.x * n;
      let ox = o.x + y * xdy;
      let oy = o.y + y * ydy;
      for (let x = 0; x < crop.width; x++, ox += xdx, oy += ydx) {
        const to = dstRow(oy) + ox * n;
        for (let k = 0; k < n; k++) data[to + k] = src.bytes[from + x * n + k];
      }
    }
    return { data, ...size };
  }
  // 1 and 4 bits: pixels packed from the most significant bit of each byte.
  const perByte = 8 / bpp;
  const mask = (1 << bpp) - 1;
  for (let y = 0; y < crop.height; y++) {
    const from = srcRow(crop.y + y);
    let ox = o.x + y * xdy;
    let oy = o.y + y * ydy;
    for (let x = 0; x < crop.width; x++, ox += xdx, oy += ydx) {
      const sx = crop.x + x;
      const v = (src.bytes[from + Math.floor(sx / perByte)] >> ((perByte - 1 - (sx % perByte)) * bpp)) & mask;
      data[dstRow(oy) + Math.floor(ox / perByte)] |= v << ((perByte - 1 - (ox % perByte)) * bpp);
    }
  }
  return { data, ...size };
}
