// A PNG written strip by strip, for images larger than the browser lets one canvas be (iOS
// Safari stops at 16.7 million pixels): each strip of rows is drawn on its own small canvas,
// read back, and fed to one streaming zlib compressor, so the whole image never sits in a canvas.
import { Zlib } from 'fflate';
import { concat } from '../../../lib/image/bytes';

/** RGBA rows [y, y + height) of the image, 4 bytes per pixel. */
export type StripSource = (y: number, height: number) => Uint8ClampedArray | Promise<Uint8ClampedArray>;

/** The PNG (8-bit RGBA) of a width × height image read in strips of at most `stripRows` rows. */
export async function pngFromStrips(width: number, height: number, stripRows: number, read: StripSource): Promise<Uint8Array> {
  if (!(width > 0 && height > 0 && stripRows > 0)) throw new RangeError(`pngFromStrips: bad size ${width}×${height}/${stripRows}`);
  const compressed: Uint8Array[] = [];
  const zlib = new Zlib({ level: 6 });
  zlib.ondata = (chunk) => compressed.push(chunk);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y += stripRows) {
    const rows = Math.min(stripRows, height - y);
    const rgba = await read(y, rows);
    if (rgba.length !== rows * rowBytes) throw new RangeError(`strip at row ${y}: ${rgba.length} bytes, not ${rows * rowBytes}`);
    // Each row starts with its filter type; 0 (none) keeps this simple and exact.
    const filtered = new Uint8Array(rows * (rowBytes + 1));
    for (let r = 0; r < rows; r++) filtered.set(rgba.subarray(r * rowBytes, (r + 1) * rowBytes), r * (rowBytes + 1) + 1);
    zlib.push(filtered, y + rows >= height);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...compressed.map((c) => chunk('IDAT', c)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
