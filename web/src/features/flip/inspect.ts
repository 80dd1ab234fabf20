// Opening a file: what it is (from its bytes, never its name), whether this browser can take it,
// and a small upright preview to draw flipped as the visitor works. Raster images are decoded in
// the flip worker, which keeps the pixels for the flip itself: a photo is decoded once.
import { decodedPixelBytes, frameCount, headerSize, isAnimated, isLossyWebp, sniffFormat, type ImageFormat } from './logic/formats';
import type { FlipClient } from './flipClient';
import { MAX_DECODED_BYTES, MAX_IMAGE_PIXELS } from './protocol';

const MAX_SIDE = 32_767;
/** A file larger than this is refused before it is read. */
export const MAX_FILE_BYTES = 300 * 1024 * 1024;
/** The preview's longest side, in pixels: enough for a sharp preview on a 2× screen. */
const PREVIEW_SIDE = 1200;

/**
 * heic: a HEIC/HEIF photo this browser cannot decode; tooManyFrames: an animation whose frames
 * hold more than MAX_DECODED_BYTES of samples.
 */
export type Problem = 'empty' | 'unsupported' | 'corrupt' | 'tooLarge' | 'heic' | 'tooManyFrames';

export interface OpenedImage {
  ok: true;
  file: File;
  format: ImageFormat;
  /** Upright size (after the EXIF orientation). */
  width: number;
  height: number;
  animated: boolean;
  /** The frames of an animation, from its headers; 1 for a still image. */
  frames: number;
  /** Holds lossy image data (a lossy WebP): kept in its format, that part is compressed again. */
  lossy: boolean;
  preview: CanvasImageSource & { width: number; height: number };
  /** The raster image's handle in the flip worker. */
  decoded?: number;
  /** The SVG's text, for a vector flip. */
  svg?: string;
}

export type Opened = OpenedImage | { ok: false; file: File; problem: Problem; frames?: number };

export async function openImage(file: File, worker: FlipClient): Promise<Opened> {
  const fail = (problem: Problem, frames?: number): Opened => ({ ok: false, file, problem, frames });
  if (file.size === 0) return fail('empty');
  if (file.size > MAX_FILE_BYTES) return fail('tooLarge');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = sniffFormat(bytes);
  if (!format) return fail('unsupported');
  const header = headerSize(bytes, format);
  if (header && (header.width * header.height > MAX_IMAGE_PIXELS || Math.max(header.width, header.height) > MAX_SIDE)) {
    return fail('tooLarge');
  }
  const animated = isAnimated(bytes, format);
  // Every frame is decoded in turn when an animation is rewritten: bounded, all told, like a
  // still image's pixels, before anything is decoded.
  const frames = animated ? frameCount(bytes, format) : 1;
  if (header && frames * header.width * header.height * decodedPixelBytes(bytes, format) > MAX_DECODED_BYTES) {
    return frames > 1 ? fail('tooManyFrames', frames) : fail('tooLarge');
  }

  if (format === 'svg') {
    const svg = new TextDecoder().decode(bytes);
    const img = await loadSvg(file);
    if (!img) return fail('corrupt');
    return { ok: true, file, format, width: img.naturalWidth, height: img.naturalHeight, animated, frames, lossy: false, preview: img, svg };
  }

  const decoded = await worker.open(file, PREVIEW_SIDE);
  if (decoded.kind === 'error') {
    // Only some browsers decode HEIC (Safari on Apple systems): the others get a way out.
    if (decoded.error === 'decode') return fail(format === 'heic' ? 'heic' : 'corrupt');
    return fail('tooLarge');
  }
  const { width, height, preview, image } = decoded;
  return { ok: true, file, format, width, height, animated, frames, lossy: format === 'webp' && isLossyWebp(bytes), preview, decoded: image };
}

/** An SVG as an <img> (createImageBitmap does not take SVG everywhere); undefined if broken. */
async function loadSvg(file: File): Promise<HTMLImageElement | undefined> {
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
    return img.naturalWidth > 0 && img.naturalHeight > 0 ? img : undefined;
  } catch {
    return undefined;
  } finally {
    URL.revokeObjectURL(url);
  }
}
