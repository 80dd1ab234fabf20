// The lossless rewriters, one loader per format of registry.ts: each is loaded by a dynamic
// import the first time a file of its format is saved in its own format, in the worker only, so
// no decoder enters the page's bundle. Adding a format is its line in registry.ts and its loader
// here. Every rewriter's refusal is mapped to one of a few reasons the page has words for; the
// caller then re-encodes.
import type { Transform } from '../../../../lib/image/transform';
import type { ImageFormat } from '../formats';
import type { Edges } from './jpeg';
import { hasRewriter, isRewritable, type Rewritable } from './registry';

export { hasRewriter, rewritable } from './registry';

/** A rectangle of the upright image, in its pixels (the worker's Crop). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Job {
  bytes: Uint8Array;
  /** Applies to the upright image (after any orientation the file records). */
  transform: Transform;
  crop?: Box;
  /** For JPEG: trim a partial edge, or refuse ('edges'). */
  edges: Edges;
  /** The most frames × pixels to decode, as for a still image's pixels. */
  maxPixels: number;
  /** 0–1, for frames that can only be compressed again (an animated WebP's lossy ones). */
  quality: number;
}

/**
 * Why a file was re-encoded rather than rewritten: what the page can say about it. lossy: a
 * still lossy WebP, which only the canvas compresses again.
 */
export type Reason = 'edges' | 'unsupported' | 'format' | 'damaged' | 'tooLarge' | 'lossy';

export type Rewritten =
  | {
      ok: true;
      bytes: Uint8Array;
      width: number;
      height: number;
      /** 1 for a still image. */
      frames: number;
      /** A JPEG's partial edge trimmed. */
      trimmed: boolean;
      /** Frames compressed again (an animated WebP's lossy ones): the file is not all lossless. */
      reencodedFrames: number;
    }
  | { ok: false; reason: Reason; detail: string };

type Rewrite = (job: Job) => Rewritten | Promise<Rewritten>;

type Load = () => Promise<Rewrite>;

/** Each rewriter's own refusal, in the page's words. */
function reason(own: string): Reason {
  switch (own) {
    case 'edges':
    case 'tooSmall':
      return 'edges';
    // The kinds of JPEG this cannot do: the page names them.
    case 'arithmetic':
    case 'precision':
    case 'colour':
    case 'kind':
      return 'unsupported';
    case 'tooLarge':
      return 'tooLarge';
    case 'damaged':
    case 'truncated':
    case 'notGif':
      return 'damaged';
    case 'lossy':
      return 'lossy';
    default:
      return 'format'; // something of this format's that the rewriter does not do
  }
}

const refused = (r: { reason: string; detail: string }): Rewritten => ({ ok: false, reason: reason(r.reason), detail: r.detail });

const done = (r: { bytes: Uint8Array; width: number; height: number }, more: { frames?: number; trimmed?: boolean; reencodedFrames?: number } = {}): Rewritten => ({
  ok: true,
  bytes: r.bytes,
  width: r.width,
  height: r.height,
  frames: Math.max(1, more.frames ?? 1),
  trimmed: more.trimmed ?? false,
  reencodedFrames: more.reencodedFrames ?? 0,
});

const loaders: Record<Rewritable, Load> = {
  jpeg: async () => {
    const { flipJpegLossless } = await import('./jpeg');
    return ({ bytes, transform, edges }) => {
      const r = flipJpegLossless(bytes, transform, edges);
      return r.ok ? done(r, { trimmed: r.trimmed }) : refused(r);
    };
  },
  png: async () => {
    const { flipPngLossless } = await import('./png');
    return async ({ bytes, transform, crop, maxPixels }) => {
      const r = await flipPngLossless(bytes, transform, { crop, maxPixels });
      return r.ok ? done(r, { frames: r.frames }) : refused(r);
    };
  },
  gif: async () => {
    const { flipGifLossless } = await import('./gif');
    return ({ bytes, transform, crop, maxPixels }) => {
      const r = flipGifLossless(bytes, transform, crop, { maxPixels });
      return r.ok ? done(r, { frames: r.frames }) : refused(r);
    };
  },
  webp: async () => {
    const [{ flipWebp }, { browserCodec }] = await Promise.all([import('./webp'), import('./webp/browserCodec')]);
    return async ({ bytes, transform, crop, maxPixels, quality }) => {
      const r = await flipWebp(bytes, transform, { codec: browserCodec, crop, limits: { maxPixels }, lossyQuality: quality });
      return r.ok ? done(r, { frames: r.frames, reencodedFrames: r.reencodedFrames }) : refused(r);
    };
  },
  bmp: async () => {
    const { flipBmpLossless } = await import('./bmp');
    return ({ bytes, transform, crop, maxPixels }) => {
      const r = flipBmpLossless(bytes, transform, { crop, limits: { maxPixels } });
      return r.ok ? done(r) : refused(r);
    };
  },
};

/** Rewrites the file, loading its format's rewriter first; a refusal, never an exception. */
export async function rewrite(format: ImageFormat, job: Job): Promise<Rewritten> {
  if (!isRewritable(format) || !hasRewriter(format, job.crop !== undefined)) {
    return { ok: false, reason: 'format', detail: `no lossless rewriter for ${format}${job.crop ? ' with a crop' : ''}` };
  }
  try {
    return await (await loaders[format]())(job);
  } catch (err) {
    // A chunk that would not load (offline after a new build), or a bug: the canvas still works.
    return { ok: false, reason: 'format', detail: String(err) };
  }
}
