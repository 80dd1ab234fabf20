// Why a BMP could not be rewritten: thrown inside the module, returned as a value from it.

/**
 * damaged: cut short or inconsistent; unsupported: a kind of BMP this rewriter does not do
 * (embedded JPEG/PNG, CMYK); rleGaps: an RLE bitmap that leaves pixels unset (they show as
 * transparent, which an uncompressed BMP cannot say); tooLarge: past the caller's limit.
 */
export type BmpReason = 'damaged' | 'unsupported' | 'rleGaps' | 'tooLarge';

export class BmpRefusal extends Error {
  constructor(
    readonly reason: BmpReason,
    detail: string,
  ) {
    super(detail);
  }
}
