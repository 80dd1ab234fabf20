// Lossless BMP flips, quarter turns and crops: the pixel array is rearranged in the file's own
// depth and everything else (palette, bit-field masks, colour space, ICC profile) is kept byte
// for byte. RLE input comes out uncompressed with the same palette and depth (see rle.ts).
import { swapsAxes, type Transform } from '../../../../../lib/image/transform';
import { BI_RGB, BI_RLE4, BI_RLE8, readLayout, rowStride, type BmpLayout } from './header';
import { rearrange, type PixelArray, type Rect } from './pixels';
import { BmpRefusal, type BmpReason } from './refusal';
import { decodeRle } from './rle';

export type { BmpReason } from './refusal';
export type { Rect } from './pixels';

export interface BmpOptions {
  /** In the input's pixels, before the transform (as the worker crops); the whole image when absent. */
  crop?: Rect;
  /** The most pixels the caller will hold; checked before anything is allocated. */
  limits?: { maxPixels: number };
}

export type BmpResult =
  | { ok: true; bytes: Uint8Array; width: number; height: number; decompressed: boolean }
  | { ok: false; reason: BmpReason; detail: string };

const FILE_HEADER = 14;

/**
 * Rewrites `bytes` (a BMP) flipped and turned by `transform` and cropped. Never throws for a bad
 * file; throws a RangeError for a crop outside the image (the caller's mistake).
 */
export function flipBmpLossless(bytes: Uint8Array, transform: Transform, options: BmpOptions = {}): BmpResult {
  let layout: BmpLayout;
  try {
    layout = readLayout(bytes);
  } catch (err) {
    return refused(err);
  }
  const crop = options.crop ?? { x: 0, y: 0, width: layout.width, height: layout.height };
  checkCrop(crop, layout);
  try {
    const max = options.limits?.maxPixels;
    if (max !== undefined && layout.width * layout.height > max) {
      throw new BmpRefusal('tooLarge', `${layout.width}×${layout.height} is more than ${max} pixels`);
    }
    const rle = layout.compression === BI_RLE8 || layout.compression === BI_RLE4;
    const out = rearrange(rle ? unpackRle(bytes, layout) : stored(bytes, layout), transform, crop, layout.topDown);
    return { ok: true, bytes: assemble(bytes, layout, out, transform), width: out.width, height: out.height, decompressed: rle };
  } catch (err) {
    return refused(err);
  }
}

function stored(bytes: Uint8Array, l: BmpLayout): PixelArray {
  return { bytes, offset: l.pixelOffset, stride: rowStride(l.width, l.bitsPerPixel), width: l.width, height: l.height, bitsPerPixel: l.bitsPerPixel, topDown: l.topDown };
}

/** RLE data as BI_RGB rows of the same depth, top row first. */
function unpackRle(bytes: Uint8Array, l: BmpLayout): PixelArray {
  const bpp = l.bitsPerPixel as 4 | 8;
  const indices = decodeRle(bytes, l.pixelOffset, l.pixelEnd, l.width, l.height, bpp);
  const stride = rowStride(l.width, bpp);
  const packed = new Uint8Array(stride * l.height);
  for (let y = 0; y < l.height; y++) {
    for (let x = 0; x < l.width; x++) {
      const v = indices[y * l.width + x];
      if (bpp === 8) packed[y * stride + x] = v;
      else packed[y * stride + (x >> 1)] |= x % 2 === 0 ? v << 4 : v;
    }
  }
  return { bytes: packed, offset: 0, stride, width: l.width, height: l.height, bitsPerPixel: bpp, topDown: true };
}

/** The input's headers (sizes updated) and what lay before its pixels, the new pixels, then any ICC profile that followed them. */
function assemble(input: Uint8Array, l: BmpLayout, px: { data: Uint8Array; width: number; height: number }, t: Transform): Uint8Array {
  const profileAfter = l.profile && l.profile.start >= l.pixelOffset ? l.profile : undefined;
  const total = l.pixelOffset + px.data.length + (profileAfter?.size ?? 0);
  const out = new Uint8Array(total);
  out.set(input.subarray(0, l.pixelOffset));
  out.set(px.data, l.pixelOffset);
  const view = new DataView(out.buffer);
  view.setUint32(2, total, true);
  const h = FILE_HEADER;
  if (l.headerSize === 12) {
    view.setUint16(h + 4, px.width, true);
    view.setUint16(h + 6, px.height, true);
  } else {
    view.setInt32(h + 4, px.width, true);
    view.setInt32(h + 8, l.topDown ? -px.height : px.height, true);
    if (l.compression === BI_RLE8 || l.compression === BI_RLE4) view.setUint32(h + 16, BI_RGB, true);
    view.setUint32(h + 20, px.data.length, true);
    if (swapsAxes(t)) {
      // Pixels per metre across and down trade places with the axes.
      view.setUint32(h + 24, view.getUint32(h + 28, true), true);
      view.setUint32(h + 28, new DataView(input.buffer, input.byteOffset).getUint32(h + 24, true), true);
    }
  }
  if (profileAfter) {
    const at = l.pixelOffset + px.data.length;
    out.set(input.subarray(profileAfter.start, profileAfter.start + profileAfter.size), at);
    // The V5 header gives the profile's place from the start of the header.
    view.setUint32(h + 112, at - h, true);
  }
  return out;
}

function checkCrop(c: Rect, l: BmpLayout): void {
  const ints = [c.x, c.y, c.width, c.height].every(Number.isInteger);
  if (!ints || c.x < 0 || c.y < 0 || c.width < 1 || c.height < 1 || c.x + c.width > l.width || c.y + c.height > l.height) {
    throw new RangeError(`crop ${c.width}×${c.height} at (${c.x}, ${c.y}) is not inside ${l.width}×${l.height}`);
  }
}

function refused(err: unknown): BmpResult {
  if (err instanceof BmpRefusal) return { ok: false, reason: err.reason, detail: err.message };
  return { ok: false, reason: 'damaged', detail: String(err) };
}
