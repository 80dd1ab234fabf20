// The messages between the flipper page and its worker. Files travel as Blobs (shared, not
// copied), results as transferred ArrayBuffers and ImageBitmaps (moved, not copied); nothing
// leaves the browser. The worker decodes each image once, when it is opened, and keeps the
// decoded pixels for the flip while they fit its memory budget.
import type { MetadataChoice } from '../../lib/image/exif';
import type { Transform } from '../../lib/image/transform';
import type { ImageFormat } from './logic/formats';
import type { Edges, LosslessResult } from './logic/lossless/jpeg';

/** A rectangle of pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A region of the upright image (after its EXIF orientation), in its pixels. */
export type Crop = Rect;

/** Decode a file, keep its pixels as `image`, and answer with its size and a small preview. */
export interface OpenRequest {
  kind: 'open';
  id: number;
  /** The handle the page will use for this image in flip and forget requests. */
  image: number;
  file: Blob;
  /** The preview's longest side, in pixels. */
  previewSide: number;
}

/** Drop the decoded pixels of an image the visitor removed. No answer. */
export interface ForgetRequest {
  kind: 'forget';
  image: number;
}

export interface FlipRequest {
  kind: 'flip';
  id: number;
  /** The opened image; its file is decoded again when its pixels were not kept. */
  image: number;
  file: Blob;
  /** The input's format, as sniffed from its bytes. */
  format: ImageFormat;
  transform: Transform;
  crop?: Crop;
  output: { format: 'png' | 'jpeg' | 'webp'; quality: number };
  /** For JPEG output from a JPEG: keep its EXIF (orientation reset to 1), and the location or not. */
  metadata: MetadataChoice;
  /**
   * A JPEG kept as JPEG, uncropped: try the lossless transform first, with this edge rule. When
   * it cannot be done, the image is re-encoded as `output` says and the answer tells why.
   */
  lossless?: { edges: Edges };
  /**
   * Results larger than this many pixels are drawn in strips without trying one canvas first.
   * Unset, one canvas is tried and strips are the fallback when the browser refuses it.
   */
  maxCanvasPixels?: number;
}

/**
 * A region of the result (or of the upright image, with the identity and no crop) at full
 * resolution, for viewing it at 100 %: the preview has too few pixels for that.
 */
export interface RegionRequest {
  kind: 'region';
  id: number;
  image: number;
  file: Blob;
  transform: Transform;
  crop?: Crop;
  /** In the result's pixels. */
  rect: Rect;
}

export type WorkerRequest = OpenRequest | FlipRequest | RegionRequest | ForgetRequest;

export type FlipError = 'decode' | 'tooLarge' | 'encode';

export type LosslessOutcome = { done: true; trimmed: boolean } | { done: false; reason: Extract<LosslessResult, { ok: false }>['reason'] };

export type WorkerResponse =
  | { id: number; kind: 'progress'; stage: 'decode' | 'draw' | 'encode' }
  | { id: number; kind: 'opened'; width: number; height: number; preview: ImageBitmap }
  | { id: number; kind: 'region'; bitmap: ImageBitmap }
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
      /** When lossless was asked for: whether it was done (and the edge trimmed), or why not. */
      lossless?: LosslessOutcome;
    }
  | { id: number; kind: 'error'; error: FlipError; detail: string };

/**
 * The largest canvas we draw into. iOS Safari refuses canvases over 16,777,216 pixels (4096²);
 * desktop browsers allow far more, but a 16.7-megapixel tile keeps memory bounded everywhere.
 */
export const MAX_CANVAS_PIXELS = 16_777_216;

/**
 * Decoded pixels the worker keeps between opening and flipping (4 bytes each): enough for a
 * 24-megapixel photo and a few small ones, so a single photo is decoded once. Beyond it, the
 * images opened longest ago are dropped and decoded again when flipped.
 */
export const KEPT_PIXELS = 32 * 1024 * 1024;
