// The messages between the flipper page and its worker. Image bytes travel as transferred
// ArrayBuffers (moved, not copied), and never leave the browser.
import type { ImageFormat } from '../tools/image/formats';
import type { Transform } from '../tools/image/transform';

/** A region of the upright image (after its EXIF orientation), in its pixels. */
export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FlipRequest {
  id: number;
  bytes: ArrayBuffer;
  /** The input's format, as sniffed from its bytes. */
  format: ImageFormat;
  transform: Transform;
  crop?: Crop;
  output: { format: 'png' | 'jpeg' | 'webp'; quality: number };
  /** For JPEG output from a JPEG: keep its EXIF (orientation reset to 1), and the location or not. */
  metadata: 'strip' | 'keep' | 'keep-without-location';
  /**
   * Results larger than this many pixels are drawn in strips without trying one canvas first.
   * Unset, one canvas is tried and strips are the fallback when the browser refuses it.
   */
  maxCanvasPixels?: number;
}

export type FlipError = 'decode' | 'tooLarge' | 'encode';

export type FlipResponse =
  | { id: number; kind: 'progress'; stage: 'decode' | 'draw' | 'encode' }
  | {
      id: number;
      kind: 'done';
      bytes: ArrayBuffer;
      mime: string;
      width: number;
      height: number;
      locationRemoved: boolean;
      /** Too large for one canvas here: drawn in strips and written as PNG. */
      inStrips: boolean;
    }
  | { id: number; kind: 'error'; error: FlipError; detail: string };

/**
 * The largest canvas we draw into. iOS Safari refuses canvases over 16,777,216 pixels (4096²);
 * desktop browsers allow far more, but a 16.7-megapixel tile keeps memory bounded everywhere.
 */
export const MAX_CANVAS_PIXELS = 16_777_216;
