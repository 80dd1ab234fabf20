// Why a WebP could not be rewritten: thrown inside the module, returned as a value from it.

/**
 * damaged: cut short or inconsistent; lossy: a still lossy (VP8) image, which only a canvas can
 * re-encode (the caller's normal path); tooLarge: frames × canvas pixels past the caller's limit;
 * decode/encode: the injected decoder or lossy encoder failed.
 */
export type WebpReason = 'damaged' | 'lossy' | 'tooLarge' | 'decode' | 'encode';

export class WebpRefusal extends Error {
  constructor(
    readonly reason: WebpReason,
    detail: string,
  ) {
    super(detail);
  }
}
