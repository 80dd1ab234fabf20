// Why a JPEG cannot take the lossless path: the caller re-encodes it instead, and says why.
export type Unsupported = 'arithmetic' | 'precision' | 'colour' | 'kind' | 'damaged';

/** Why a JPEG cannot be transformed losslessly. */
export class UnsupportedJpeg extends Error {
  constructor(
    readonly reason: Unsupported,
    detail: string,
  ) {
    super(detail);
  }
}

export const damaged = (detail: string) => new UnsupportedJpeg('damaged', detail);

/** A scan names a Huffman table that no DHT segment defined. */
export function missingTable(): never {
  throw damaged('a scan uses a Huffman table the file does not define');
}
