// Where a frame lands after the crop and transform, and the animation's canvas as a decoder
// composites it (kept in the output's coordinates for place.ts).
import { mapPoint, outputSize, type Pixels, type Transform } from '../../../../../lib/image/transform';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  return x1 > x && y1 > y ? { x, y, width: x1 - x, height: y1 - y } : undefined;
}

/** `r` (inside `crop`, both in input pixels) as it lies in the output of transforming the crop. */
export function mapRect(r: Rect, crop: Rect, t: Transform): Rect {
  const a = mapPoint(t, crop.width, crop.height, r.x - crop.x, r.y - crop.y);
  const b = mapPoint(t, crop.width, crop.height, r.x - crop.x + r.width - 1, r.y - crop.y + r.height - 1);
  const size = outputSize(t, r.width, r.height);
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), ...size };
}

/** The pixels of `r` in `img`, in a new array. */
export function cropPixels(img: Pixels, r: Rect): Pixels {
  if (r.x === 0 && r.y === 0 && r.width === img.width && r.height === img.height) return img;
  const data = new Uint8ClampedArray(r.width * r.height * 4);
  for (let y = 0; y < r.height; y++) {
    const from = ((r.y + y) * img.width + r.x) * 4;
    data.set(img.data.subarray(from, from + r.width * 4), y * r.width * 4);
  }
  return { width: r.width, height: r.height, data };
}

/** The canvas a decoder keeps while it plays the animation (transparent at first, as browsers start). */
export class Composite {
  readonly data: Uint8ClampedArray;

  constructor(readonly width: number, readonly height: number) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }

  /** Draws a frame at (x, y), alpha-blended or overwriting. */
  draw(px: Pixels, x: number, y: number, blend: boolean): void {
    for (let row = 0; row < px.height; row++) {
      for (let col = 0; col < px.width; col++) Composite.put(this.data, ((y + row) * this.width + x + col) * 4, px.data, (row * px.width + col) * 4, blend);
    }
  }

  /**
   * Puts the source pixel at s onto the destination pixel at o, overwriting or alpha-blending
   * in integers as libwebp's demuxer and Chromium do (not the spec's real-number formula), so
   * that the pixels this canvas lends to other frames are the ones a browser shows.
   */
  static put(d: Uint8ClampedArray, o: number, src: Uint8ClampedArray, s: number, blend: boolean): void {
    const sa = src[s + 3];
    // Opaque pixels are copied, never blended (libwebp's BlendPixelRowNonPremult).
    if (!blend || sa === 255) {
      d.set(src.subarray(s, s + 4), o);
      return;
    }
    if (sa === 0) return;
    const dstFactor = (d[o + 3] * (256 - sa)) >> 8;
    const a = sa + dstFactor;
    const scale = Math.floor(0x1000000 / a);
    for (let k = 0; k < 3; k++) d[o + k] = Math.floor(((src[s + k] * sa + d[o + k] * dstFactor) * scale) / 0x1000000);
    d[o + 3] = a;
  }

  clear(r: Rect): void {
    for (let row = r.y; row < r.y + r.height; row++) this.data.fill(0, (row * this.width + r.x) * 4, (row * this.width + r.x + r.width) * 4);
  }
}
