// A PNG written strip by strip, for images larger than the browser lets one canvas be (iOS
// Safari stops at 16.7 million pixels): each strip of rows is drawn on its own small canvas,
// read back, and handed to the lossless PNG writer's row encoder (filtered and compressed as it
// comes, by the platform's zlib), so the whole image never sits in a canvas.
import { writePng } from './lossless/png/chunks';
import { rowEncoder } from './lossless/png/encode';
import { writeHeader, type Header } from './lossless/png/header';

/** RGBA rows [y, y + height) of the image, 4 bytes per pixel. */
export type StripSource = (y: number, height: number) => Uint8ClampedArray | Promise<Uint8ClampedArray>;

/** The PNG (8-bit RGBA) of a width × height image read in strips of at most `stripRows` rows. */
export async function pngFromStrips(width: number, height: number, stripRows: number, read: StripSource): Promise<Uint8Array> {
  if (!(width > 0 && height > 0 && stripRows > 0)) throw new RangeError(`pngFromStrips: bad size ${width}×${height}/${stripRows}`);
  const header: Header = { width, height, depth: 8, colourType: 6, interlaced: false, bitsPerPixel: 32 };
  const rowBytes = width * 4;
  const encoder = rowEncoder(header, rowBytes, height);
  for (let y = 0; y < height; y += stripRows) {
    const rows = Math.min(stripRows, height - y);
    const rgba = await read(y, rows);
    if (rgba.length !== rows * rowBytes) throw new RangeError(`strip at row ${y}: ${rgba.length} bytes, not ${rows * rowBytes}`);
    await encoder.push(new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length), rows);
  }
  const idat = await encoder.finish();
  return writePng([
    { type: 'IHDR', data: writeHeader(header, width, height) },
    ...idat.map((data) => ({ type: 'IDAT', data })),
    { type: 'IEND', data: new Uint8Array(0) },
  ]);
}
