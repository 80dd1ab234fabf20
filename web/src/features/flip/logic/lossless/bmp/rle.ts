// RLE8 and RLE4 pixel data decoded to one palette index per pixel. The rewriter writes them
// back uncompressed (BI_RGB) with the same palette and depth: the same indices, so the same
// picture, only larger. An RLE bitmap may also skip pixels (delta, early end of line or of
// bitmap); browsers show those as transparent, which BI_RGB cannot express, so such a file is
// refused ('rleGaps') and the caller re-encodes it as the browser shows it.
import { BmpRefusal } from './refusal';

/** Indices of width × height pixels, rows from the top. */
export function decodeRle(b: Uint8Array, start: number, end: number, width: number, height: number, bitsPerPixel: 4 | 8): Uint8Array {
  const out = new Uint8Array(width * height);
  let written = 0;
  let x = 0;
  // Rows are stored from the bottom.
  let row = 0;
  let at = start;
  const put = (v: number) => {
    if (row >= height) throw new BmpRefusal('damaged', 'RLE data past the last row');
    // Runs past the row's end are dropped, as ImageMagick reads them: its own RLE8 writer
    // encodes each row's padding as pixels.
    if (x < width) {
      out[(height - 1 - row) * width + x] = v;
      written++;
    }
    x++;
  };
  for (;;) {
    if (at + 2 > end) {
      // Some writers stop once every pixel is written, without the end-of-bitmap code.
      if (written === width * height) return out;
      throw new BmpRefusal('damaged', 'the RLE data is cut short');
    }
    const count = b[at];
    const value = b[at + 1];
    at += 2;
    if (count > 0) {
      for (let i = 0; i < count; i++) put(bitsPerPixel === 8 ? value : i % 2 === 0 ? value >> 4 : value & 15);
      continue;
    }
    if (value === 0) {
      // End of line.
      if (x < width) return gaps();
      x = 0;
      row++;
    } else if (value === 1) {
      // End of bitmap.
      if (written !== width * height) return gaps();
      return out;
    } else if (value === 2) {
      return gaps();
    } else {
      // Absolute run of `value` pixels, padded to a 16-bit boundary.
      const bytes = bitsPerPixel === 8 ? value : Math.ceil(value / 2);
      if (at + bytes > end) throw new BmpRefusal('damaged', 'an RLE absolute run is cut short');
      for (let i = 0; i < value; i++) put(bitsPerPixel === 8 ? b[at + i] : i % 2 === 0 ? b[at + (i >> 1)] >> 4 : b[at + (i >> 1)] & 15);
      at += bytes + (bytes % 2);
    }
  }
}

function gaps(): never {
  throw new BmpRefusal('rleGaps', 'the RLE data leaves pixels unset (shown transparent)');
}
