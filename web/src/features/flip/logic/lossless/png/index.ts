// Lossless PNG (and APNG) flips and quarter turns: the samples are rearranged in the file's own
// colour type and bit depth, never converted, and written again with the file's palette,
// transparency, colour and text chunks (ancillary.ts says what becomes of each chunk). Each
// frame of an APNG is rewritten with its delay, disposal and blending; the loop count is kept.
// Interlaced input comes out non-interlaced. What cannot be done comes back as a reason, never
// as an exception, for the caller to re-encode instead or to tell the visitor. It is async
// only because the platform's deflate (CompressionStream) is; it holds the thread otherwise.
//
// Memory: the input, one image's decoded rows (twice that while an interlaced one's passes are
// gathered), and the output (twice while the file is assembled); the rearranged rows of a large
// image are compressed band by band (encode.ts). The caller's pixel limit is checked against the
// headers before anything is decoded.
import { compose, fromExifOrientation, inverse, mapPoint, outputSize, swapsAxes, type Transform } from '../../../../../lib/image/transform';
import { PngError, writePng, type OutChunk, type PngRefusal } from './chunks';
import { ancillary, exifOrientation } from './ancillary';
import { FrameWriter, type Rewritten } from './frames';
import { writeHeader } from './header';
import type { Rect } from './rearrange';
import { readStructure, writeAnimation, writeControl } from './structure';

export type { PngRefusal } from './chunks';

export interface PngOptions {
  /**
   * The part of the image to keep, in the pixels of the upright image before the transform:
   * the page's Crop, as the canvas path applies it (the stored pixels, or, when an eXIf chunk
   * before the image data says the image is turned, the pixels as browsers show them). Every
   * frame of an animation is cropped to it. Unset: the whole image.
   */
  crop?: Rect;
  /**
   * Refuse ('tooLarge') when the still image and the frames hold more pixels than this, all
   * told (a frame counts its own size, not the canvas's).
   */
  maxPixels: number;
}

export type PngResult =
  | {
      ok: true;
      bytes: Uint8Array;
      width: number;
      height: number;
      /** The frames of the animation; 0 for a still PNG. */
      frames: number;
      /** The types of the chunks left out, in file order, once each (see ancillary.ts). */
      dropped: string[];
    }
  | { ok: false; reason: PngRefusal; detail: string };

/** `transform` applies to the upright image (after the orientation of an eXIf chunk, if any). */
export async function flipPngLossless(bytes: Uint8Array, transform: Transform, options: PngOptions): Promise<PngResult> {
  try {
    return { ok: true, ...(await rewrite(bytes, transform, options)) };
  } catch (err) {
    if (err instanceof PngError) return { ok: false, reason: err.reason, detail: err.message };
    // An allocation the engine refused: the image is too large for this tab.
    if (err instanceof RangeError) return { ok: false, reason: 'tooLarge', detail: err.message };
    return { ok: false, reason: 'damaged', detail: String(err) };
  }
}

async function rewrite(input: Uint8Array, transform: Transform, options: PngOptions) {
  // A plain view: a Node Buffer's slice() shares its memory, and the input is never changed.
  const s = readStructure(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  const h = s.header;
  const orientation = fromExifOrientation(s.exif ? exifOrientation(s.exif) : 1);
  const t = compose(orientation, transform);
  const crop = storedCrop(options.crop, orientation, h.width, h.height);
  const pixels = s.images.reduce((n, im) => n + im.rect.width * im.rect.height, 0);
  if (pixels > options.maxPixels) throw new PngError('tooLarge', `${pixels} pixels (${h.width}×${h.height}, ${s.images.length} images) are over the limit of ${options.maxPixels}`);
  const out = outputSize(t, crop.width, crop.height);
  const frames = new FrameWriter(s, crop, t);
  const done = new Map<number, Rewritten>();
  const rewritten = async (n: number) => done.get(n) ?? done.set(n, await frames.rewrite(s.images[n], n)).get(n)!;
  const parts: OutChunk[] = [];
  const dropped: string[] = [];
  let sequence = 0;
  for (const [i, c] of s.chunks.entries()) {
    const role = s.roles[i];
    if (role.kind === 'header') {
      parts.push({ type: 'IHDR', data: writeHeader(h, out.width, out.height) });
    } else if (role.kind === 'end') {
      parts.push({ type: 'IEND', data: new Uint8Array(0) });
    } else if (role.kind === 'animation') {
      parts.push({ type: 'acTL', data: writeAnimation(s.images.filter((im) => im.control).length, s.plays ?? 0) });
    } else if (role.kind === 'control') {
      parts.push({ type: 'fcTL', data: writeControl((await rewritten(role.image)).control!), sequence: sequence++ });
    } else if (role.kind === 'data') {
      if (!role.first) continue;
      for (const data of (await rewritten(role.image)).parts) parts.push(role.image === 0 ? { type: 'IDAT', data } : { type: 'fdAT', data, sequence: sequence++ });
      done.delete(role.image);
    } else if (role.kind === 'ignored') {
      dropped.push(c.type);
    } else {
      const data = ancillary(c, swapsAxes(t));
      if (data) parts.push({ type: c.type, data });
      else dropped.push(c.type);
    }
  }
  return { bytes: writePng(parts), ...out, frames: s.plays === undefined ? 0 : s.images.filter((im) => im.control).length, dropped: [...new Set(dropped)] };
}

/** The crop (in upright pixels) as a rectangle of the stored pixels, checked. */
function storedCrop(crop: Rect | undefined, orientation: Transform, width: number, height: number): Rect {
  if (!crop) return { x: 0, y: 0, width, height };
  const upright = outputSize(orientation, width, height);
  const { x, y, width: w, height: hh } = crop;
  if (![x, y, w, hh].every(Number.isInteger) || x < 0 || y < 0 || w < 1 || hh < 1 || x + w > upright.width || y + hh > upright.height) {
    throw new PngError('crop', `the crop ${w}×${hh} at ${x},${y} is not within the ${upright.width}×${upright.height} image`);
  }
  const back = inverse(orientation);
  const a = mapPoint(back, upright.width, upright.height, x, y);
  const b = mapPoint(back, upright.width, upright.height, x + w - 1, y + hh - 1);
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x) + 1, height: Math.abs(a.y - b.y) + 1 };
}
