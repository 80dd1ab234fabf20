// One image of the file (the still image or an APNG frame) rewritten: the part of it inside the
// crop, flipped or turned, and its place on the output canvas. A frame entirely outside the crop
// becomes the smallest legal frame (1×1) that changes nothing, and keeps its delay:
// - where the format can hold a fully transparent pixel (an alpha channel, a tRNS colour, or a
//   palette entry of alpha 0), that pixel, blended over (no change) and not disposed;
// - otherwise a copy of the first pixel of the frame shown before it, where that frame left it
//   (it was disposed of "none" and its pixel replaced what was there), drawn as source;
// - otherwise (the first frame shown, or after a frame that was disposed of, in an image without
//   transparency) it cannot be done exactly, and the file is refused ('animationCrop').
import { mapPoint, outputSize, type Transform } from '../../../../../lib/image/transform';
import { PngError } from './chunks';
import { rowEncoder, tinyStream } from './encode';
import { rowBytes } from './header';
import { decodeRaster } from './raster';
import { rearrange, type Rect } from './rearrange';
import type { FrameControl, Image, Structure } from './structure';

export interface Rewritten {
  /** Its new control, for a frame of the animation. */
  control?: FrameControl;
  /** The new zlib stream, in pieces. */
  parts: Uint8Array[];
}

/** What an empty frame may copy: the last frame shown, where it is and its first pixel. */
export interface Shown {
  control: FrameControl;
  pixel: Uint8Array;
}

export class FrameWriter {
  private shown?: Shown;
  private readonly transparent?: Uint8Array;

  constructor(
    private readonly s: Structure,
    /** The stored pixels kept (the crop, in the file's coordinates). */
    private readonly crop: Rect,
    /** The whole transform, from stored pixels to the result. */
    private readonly t: Transform,
  ) {
    this.transparent = transparentPixel(s);
  }

  async rewrite(image: Image, n: number): Promise<Rewritten> {
    const inside = intersect(image.rect, this.crop);
    if (!inside) return this.empty(image, n);
    const { encoder, size, pixel } = await this.rearranged(image, inside);
    const parts = await encoder.finish();
    if (!image.control) return { parts };
    const control = { ...image.control, ...this.place(inside), ...size };
    this.shown = { control, pixel };
    return { control, parts };
  }

  /**
   * The image's rows inside the crop, rearranged into an encoder, and its first pixel. Apart
   * from rewrite, so that the decoded image is free to go before the rows are compressed.
   */
  private async rearranged(image: Image, inside: Rect) {
    const h = this.s.header;
    const raster = decodeRaster(h, image.parts, image.rect.width, image.rect.height);
    const region = { x: inside.x - image.rect.x, y: inside.y - image.rect.y, width: inside.width, height: inside.height };
    const size = outputSize(this.t, inside.width, inside.height);
    const encoder = rowEncoder(h, rowBytes(h, size.width), size.height);
    const pixel = new Uint8Array(Math.max(1, h.bitsPerPixel >> 3));
    await rearrange(h, raster, region, this.t, (band, y, rows) => {
      if (y === 0) pixel.set(band.subarray(0, pixel.length));
      return encoder.push(band, rows);
    });
    if (h.bitsPerPixel < 8) pixel[0] &= (0xff << (8 - h.bitsPerPixel)) & 0xff;
    return { encoder, size, pixel };
  }

  /** Where a rectangle of the stored canvas (inside the crop) lands on the output canvas. */
  private place(r: Rect): { x: number; y: number } {
    const { crop, t } = this;
    const a = mapPoint(t, crop.width, crop.height, r.x - crop.x, r.y - crop.y);
    const b = mapPoint(t, crop.width, crop.height, r.x - crop.x + r.width - 1, r.y - crop.y + r.height - 1);
    return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) };
  }

  private async empty(image: Image, n: number): Promise<Rewritten> {
    // The still image covers the whole canvas, so only frames can miss the crop.
    const c = image.control!;
    const one = { width: 1, height: 1, dispose: 0 };
    if (this.transparent) {
      const control = { ...c, ...one, x: 0, y: 0, blend: 1 };
      this.shown = { control, pixel: this.transparent };
      return { control, parts: await tinyStream(this.transparent) };
    }
    const last = this.shown;
    if (!last || last.control.dispose !== 0 || !(last.control.blend === 0 || this.opaque(last.pixel))) {
      throw new PngError('animationCrop', `frame ${n} lies outside the crop, and without transparency no 1×1 frame can leave the canvas as it was`);
    }
    const control = { ...c, ...one, x: last.control.x, y: last.control.y, blend: 0 };
    this.shown = { control, pixel: last.pixel };
    return { control, parts: await tinyStream(last.pixel) };
  }

  /** Whether a pixel (in an image with no fully transparent one) is opaque. */
  private opaque(pixel: Uint8Array): boolean {
    const { header: h, transparency } = this.s;
    if (h.colourType !== 3 || !transparency) return true;
    const index = pixel[0] >> (8 - h.depth);
    return index >= transparency.length || transparency[index] === 255;
  }
}

export function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/** A pixel of alpha 0 in the file's own format, packed as in a row, if the format has one. */
function transparentPixel(s: Structure): Uint8Array | undefined {
  const { header: h, transparency: t, palette } = s;
  const bytes = Math.max(1, h.bitsPerPixel >> 3);
  if (h.colourType === 4 || h.colourType === 6) return new Uint8Array(bytes);
  if (!t) return undefined;
  if (h.colourType === 3) {
    const entries = Math.min(t.length, (palette?.length ?? 0) / 3, 1 << h.depth);
    for (let i = 0; i < entries; i++) if (t[i] === 0) return new Uint8Array([i << (8 - h.depth)]);
    return undefined;
  }
  const samples = h.colourType === 0 ? 1 : 3;
  if (t.length !== samples * 2) return undefined;
  const values = Array.from({ length: samples }, (_, i) => (t[2 * i] << 8) | t[2 * i + 1]);
  if (values.some((v) => v >= 1 << h.depth)) return undefined; // no pixel can match it
  if (h.depth === 16) return t.slice();
  if (h.depth === 8) return new Uint8Array(values);
  return new Uint8Array([values[0] << (8 - h.depth)]);
}
