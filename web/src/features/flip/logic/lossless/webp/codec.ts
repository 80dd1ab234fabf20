// What the rewriter needs from outside: decoding one still WebP exactly and encoding pixels
// lossily. In the worker the browser does both (browserCodec.ts); Node tests pass their own.
import type { Pixels } from '../../../../../lib/image/transform';

export interface WebpCodec {
  /** RGBA of a still WebP as stored: not premultiplied, no colour conversion. */
  decode(still: Uint8Array): Promise<Pixels>;
  /** A still lossy WebP file of the pixels (its VP8 and ALPH chunks are taken out of it). */
  encodeLossy(px: Pixels, quality: number): Promise<Uint8Array>;
}
