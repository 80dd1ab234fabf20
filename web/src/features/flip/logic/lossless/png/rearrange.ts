// The output's rows from the stored pixels: a rectangle of them (the crop) flipped or turned,
// samples moved in the file's own depth, sub-byte pixels unpacked and packed again. Rows are
// made a band at a time, and a band tile by tile, so that a quarter turn, which reads columns,
// stays within the CPU cache and only one band is held beside the image.
import { inverse, mapPoint, outputSize, type Transform } from '../../../../../lib/image/transform';
import { rowBytes, type Header } from './header';
import type { Raster } from './raster';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const BAND = 64;
const TILE = 64;

/**
 * Calls `emit` with bands of output rows (`rows` rows of rowBytes(h, width) bytes each, the
 * band's first row being output row y) for `region` of `raster` transformed by `t`.
 */
export async function rearrange(
  h: Header,
  raster: Raster,
  region: Rect,
  t: Transform,
  emit: (band: Uint8Array, y: number, rows: number) => void | Promise<void>,
): Promise<{ width: number; height: number }> {
  const out = outputSize(t, region.width, region.height);
  const orb = rowBytes(h, out.width);
  // Output (ox, oy) reads the region's pixel o + ox·u + oy·v.
  const inv = inverse(t);
  const o = mapPoint(inv, out.width, out.height, 0, 0);
  const ex = mapPoint(inv, out.width, out.height, 1, 0);
  const ey = mapPoint(inv, out.width, out.height, 0, 1);
  const u = { x: ex.x - o.x, y: ex.y - o.y };
  const v = { x: ey.x - o.x, y: ey.y - o.y };
  const band = new Uint8Array(Math.min(BAND, out.height) * orb);
  const bytes = h.bitsPerPixel >> 3;
  for (let y0 = 0; y0 < out.height; y0 += BAND) {
    const rows = Math.min(BAND, out.height - y0);
    if (bytes) {
      const stride = raster.stride;
      const at = (x: number, y: number) => raster.offset + (region.y + y) * stride + (region.x + x) * bytes;
      const start = at(o.x, o.y);
      const stepX = u.x * bytes + u.y * stride;
      const stepY = v.x * bytes + v.y * stride;
      if (stepX === bytes) {
        // Rows stay rows, left to right (no turn, maybe upside down): copied whole.
        for (let r = 0; r < rows; r++) {
          const src = start + (y0 + r) * stepY;
          band.set(raster.data.subarray(src, src + orb), r * orb);
        }
      } else {
        copyTiles(raster.data, band, start + y0 * stepY, stepX, stepY, bytes, out.width, rows, orb);
      }
    } else {
      band.fill(0);
      packTiles(h.bitsPerPixel, raster, region, o, u, v, band, y0, rows, out.width, orb);
    }
    await emit(band, y0, rows);
  }
  return out;
}

/** Whole-byte pixels: band row r, column x reads src[start + r·stepY + x·stepX]. */
function copyTiles(src: Uint8Array, band: Uint8Array, start: number, stepX: number, stepY: number, bytes: number, width: number, rows: number, orb: number): void {
  for (let x0 = 0; x0 < width; x0 += TILE) {
    const x1 = Math.min(width, x0 + TILE);
    for (let r = 0; r < rows; r++) {
      let s = start + r * stepY + x0 * stepX;
      let d = r * orb + x0 * bytes;
      if (bytes === 1) {
        for (let x = x0; x < x1; x++, s += stepX) band[d++] = src[s];
      } else {
        for (let x = x0; x < x1; x++, s += stepX) for (let k = 0; k < bytes; k++) band[d++] = src[s + k];
      }
    }
  }
}

/** Pixels of 1, 2 or 4 bits (one sample): unpacked one by one and packed into the zeroed band. */
function packTiles(
  bits: number,
  raster: Raster,
  region: Rect,
  o: { x: number; y: number },
  u: { x: number; y: number },
  v: { x: number; y: number },
  band: Uint8Array,
  y0: number,
  rows: number,
  width: number,
  orb: number,
): void {
  const mask = (1 << bits) - 1;
  for (let x0 = 0; x0 < width; x0 += TILE) {
    const x1 = Math.min(width, x0 + TILE);
    for (let r = 0; r < rows; r++) {
      const oy = y0 + r;
      for (let x = x0; x < x1; x++) {
        const sx = region.x + o.x + x * u.x + oy * v.x;
        const sy = region.y + o.y + x * u.y + oy * v.y;
        const bit = sx * bits;
        const value = (raster.data[raster.offset + sy * raster.stride + (bit >> 3)] >> (8 - bits - (bit & 7))) & mask;
        const obit = x * bits;
        band[r * orb + (obit >> 3)] |= value << (8 - bits - (obit & 7));
      }
    }
  }
}
