// Which formats have a lossless rewriter, and whether it takes a crop: the facts the page needs
// to say what will be lossless, without loading (or bundling) any rewriter. The rewriters
// themselves are in index.ts, one loader per format named here; the compiler asks for it.
import type { ImageFormat } from '../formats';

export const rewriters = {
  jpeg: { takesCrop: false },
  png: { takesCrop: true },
  gif: { takesCrop: true },
  webp: { takesCrop: true },
  bmp: { takesCrop: true },
} as const satisfies Partial<Record<ImageFormat, { takesCrop: boolean }>>;

export type Rewritable = keyof typeof rewriters;

/** The formats with a rewriter, for the page's words. */
export const rewritable = Object.keys(rewriters) as Rewritable[];

export function isRewritable(format: ImageFormat): format is Rewritable {
  return Object.hasOwn(rewriters, format);
}

/** Whether a file of `format`, kept in its format, is saved by its rewriter (when it can be). */
export function hasRewriter(format: ImageFormat, cropped: boolean): boolean {
  return isRewritable(format) && (rewriters[format].takesCrop || !cropped);
}
