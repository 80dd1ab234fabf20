// WebP flips, quarter turns and crops that keep what the file is: a lossless image stays
// lossless (decoded, rearranged, encoded again by our VP8L encoder), an animation keeps every
// frame with its duration, blending and disposal, the loop count and background colour, and
// the ICC profile, EXIF and XMP chunks are kept as they are. Lossy frames of an animation are
// re-encoded (counted in `reencodedFrames`); a still lossy image is the caller's to re-encode.
//
// Frames that a flip puts at odd offsets grow by a line that changes nothing on screen (see
// place.ts).
import { outputSize, transformPixels, type Pixels, type Transform } from '../../../../../lib/image/transform';
import { cropPixels, intersect, mapRect, type Rect } from './canvas';
import type { WebpCodec } from './codec';
import { Placer } from './place';
import { readChunks, readWebp, type Frame, type WebpFile } from './riff';
import { WebpRefusal, type WebpReason } from './refusal';
import { argbFromRgba, encodeVp8l } from './vp8l/encode';
import { chunk, rewrap, stillFile, writeWebp, type OutputFrame } from './write';

export type { WebpCodec } from './codec';
export type { WebpReason } from './refusal';
export type { Rect } from './canvas';

export interface WebpOptions {
  codec: WebpCodec;
  /** In the canvas's pixels, before the transform; the whole canvas when absent. */
  crop?: Rect;
  /** Frames × canvas pixels the caller will hold; checked before anything is decoded. */
  limits?: { maxPixels: number };
  /** For re-encoded lossy frames, 0–1 as for convertToBlob. */
  lossyQuality?: number;
}

export type WebpResult =
  | { ok: true; bytes: Uint8Array; width: number; height: number; animated: boolean; frames: number; reencodedFrames: number }
  | { ok: false; reason: WebpReason; detail: string };

export async function flipWebp(bytes: Uint8Array, transform: Transform, options: WebpOptions): Promise<WebpResult> {
  try {
    return await rewrite(readWebp(bytes), transform, options);
  } catch (err) {
    if (err instanceof WebpRefusal) return { ok: false, reason: err.reason, detail: err.message };
    if (err instanceof RangeError && String(err.message).startsWith('crop')) throw err;
    return { ok: false, reason: 'damaged', detail: String(err) };
  }
}

async function rewrite(file: WebpFile, t: Transform, options: WebpOptions): Promise<WebpResult> {
  const crop = options.crop ?? { x: 0, y: 0, width: file.canvasWidth, height: file.canvasHeight };
  checkCrop(crop, file);
  if (!file.animated && file.frames[0].image.fourcc !== 'VP8L') throw new WebpRefusal('lossy', 'a still lossy (VP8) image');
  const max = options.limits?.maxPixels;
  const pixels = file.frames.length * file.canvasWidth * file.canvasHeight;
  if (max !== undefined && pixels > max) throw new WebpRefusal('tooLarge', `${file.frames.length} frames of ${file.canvasWidth}×${file.canvasHeight} are more than ${max} pixels`);

  const size = outputSize(t, crop.width, crop.height);
  const placer = file.animated ? new Placer(size.width, size.height) : undefined;
  const frames: OutputFrame[] = [];
  let reencodedFrames = 0;
  let alpha = (file.flags & 0x10) !== 0;
  for (const f of file.frames) {
    const visible = intersect(f, crop);
    if (!visible) {
      // Nothing of it is left, but its time on screen is: a blended frame that changes nothing.
      const placed = placer!.place(undefined, undefined, true, false);
      frames.push({ ...placed.rect, duration: f.duration, blend: true, dispose: false, data: [vp8l(placed.px)] });
      alpha = true;
      continue;
    }
    const decoded = await decodeFrame(f, options.codec);
    const moved = transformPixels(cropPixels(decoded, { ...visible, x: visible.x - f.x, y: visible.y - f.y }), t);
    const at = mapRect(visible, crop, t);
    const placed = placer ? placer.place(moved, at, f.blend, f.dispose) : { px: moved, rect: at };
    if (placed.px !== moved) alpha = true;
    const lossless = f.image.fourcc === 'VP8L';
    const data = lossless ? [vp8l(placed.px)] : await lossyChunks(placed.px, options);
    if (!lossless) reencodedFrames++;
    alpha ||= data.length > 1;
    frames.push({ ...placed.rect, duration: f.duration, blend: f.blend, dispose: f.dispose, data });
  }
  const bytes = writeWebp({ ...size, alpha, iccp: file.iccp, exif: file.exif, xmp: file.xmp, anim: file.anim, frames });
  return { ok: true, bytes, ...size, animated: file.animated, frames: frames.length, reencodedFrames };
}

function vp8l(px: Pixels): Uint8Array {
  return chunk('VP8L', encodeVp8l(argbFromRgba(px.data), px.width, px.height));
}

async function decodeFrame(f: Frame, codec: WebpCodec): Promise<Pixels> {
  let px: Pixels;
  try {
    px = await codec.decode(stillFile(f.image, f.width, f.height, f.alph));
  } catch (err) {
    throw new WebpRefusal('decode', `a ${f.width}×${f.height} frame: ${String(err)}`);
  }
  if (px.width !== f.width || px.height !== f.height || px.data.length !== f.width * f.height * 4) {
    throw new WebpRefusal('decode', `a ${f.width}×${f.height} frame decoded as ${px.width}×${px.height}`);
  }
  return px;
}

async function lossyChunks(px: Pixels, options: WebpOptions): Promise<Uint8Array[]> {
  let still: Uint8Array;
  try {
    still = await options.codec.encodeLossy(px, options.lossyQuality ?? 0.9);
  } catch (err) {
    throw new WebpRefusal('encode', String(err));
  }
  const chunks = readChunks(still, 12, still.length);
  const vp8 = chunks.find((c) => c.fourcc === 'VP8 ');
  if (!vp8) throw new WebpRefusal('encode', `the encoder wrote ${chunks.map((c) => c.fourcc).join(', ')} instead of VP8`);
  const alph = chunks.find((c) => c.fourcc === 'ALPH');
  return alph ? [rewrap(alph), rewrap(vp8)] : [rewrap(vp8)];
}

function checkCrop(c: Rect, f: WebpFile): void {
  const ints = [c.x, c.y, c.width, c.height].every(Number.isInteger);
  if (!ints || c.x < 0 || c.y < 0 || c.width < 1 || c.height < 1 || c.x + c.width > f.canvasWidth || c.y + c.height > f.canvasHeight) {
    throw new RangeError(`crop ${c.width}×${c.height} at (${c.x}, ${c.y}) is not inside ${f.canvasWidth}×${f.canvasHeight}`);
  }
}
