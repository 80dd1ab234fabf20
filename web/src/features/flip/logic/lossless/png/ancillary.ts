// What becomes of each chunk besides the image data. The palette, transparency, colour (gAMA,
// cHRM, sRGB, iCCP, cICP, mDCV, cLLI, sBIT), background, histogram, suggested palettes, sample
// calibration (pCAL) and text are about the samples or the file, not their places, and are kept
// as they are, in their order; the physical pixel size (pHYs, sCAL) swaps its axes on a quarter
// turn. Dropped, and named in the result: tIME (it would claim the old modification time), eXIf
// (the caller adds the EXIF the visitor chose, as for JPEG; its orientation is folded into the
// transform), oFFs (a position on a page that no longer holds), sTER (a flipped stereo pair is
// not one), dSIG (the signature no longer matches), and any other chunk the PNG specification
// calls unsafe to copy into an image whose data changed. Other unknown ancillary chunks marked
// safe to copy are kept, as the specification allows. An unknown critical chunk is refused.
import { PngError, u16, u32, type Chunk } from './chunks';

const kept = new Set(['PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'cICP', 'mDCV', 'cLLI', 'sBIT', 'bKGD', 'hIST', 'sPLT', 'pCAL', 'tEXt', 'zTXt', 'iTXt']);
const dropped = new Set(['tIME', 'eXIf', 'oFFs', 'sTER', 'dSIG']);

/** The chunk's data as it goes into the output, or undefined when it is dropped. */
export function ancillary(c: Chunk, swapAxes: boolean): Uint8Array | undefined {
  if (kept.has(c.type)) return c.data;
  if (c.type === 'pHYs') return swapAxes && c.data.length === 9 ? swapPhys(c.data) : c.data;
  if (c.type === 'sCAL') return swapAxes ? swapScal(c.data) : c.data;
  if (dropped.has(c.type)) return undefined;
  if (c.type.charCodeAt(0) < 0x61) throw new PngError('unsupported', `an unknown critical chunk ${c.type}`);
  // Bit 5 of the fourth letter (lower case) marks a chunk safe to copy whatever changed.
  return c.type.charCodeAt(3) >= 0x61 ? c.data : undefined;
}

function swapPhys(d: Uint8Array): Uint8Array {
  const out = d.slice();
  out.set(d.subarray(4, 8), 0);
  out.set(d.subarray(0, 4), 4);
  return out;
}

/** sCAL: a unit byte, then the pixel's width and height as text, separated by a zero byte. */
function swapScal(d: Uint8Array): Uint8Array {
  const zero = d.indexOf(0, 1);
  if (zero < 0) return d;
  const out = new Uint8Array(d.length);
  out[0] = d[0];
  const height = d.subarray(zero + 1);
  out.set(height, 1);
  out[1 + height.length] = 0;
  out.set(d.subarray(1, zero), 2 + height.length);
  return out;
}

/**
 * The orientation (1–8) in an eXIf chunk's TIFF structure, 1 when absent or unreadable. Browsers
 * show a PNG turned by it when the chunk comes before the image data (and ignore it after).
 */
export function exifOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!le && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return 1;
  const r16 = (at: number) => (le ? tiff[at] | (tiff[at + 1] << 8) : u16(tiff, at));
  const r32 = (at: number) => (le ? (tiff[at] | (tiff[at + 1] << 8) | (tiff[at + 2] << 16) | (tiff[at + 3] << 24)) >>> 0 : u32(tiff, at));
  if (r16(2) !== 42) return 1;
  const ifd = r32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = r16(ifd);
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > tiff.length) return 1;
    // A single SHORT, as the standard has it and as browsers read it.
    if (r16(e) === 0x0112 && r16(e + 2) === 3 && r32(e + 4) >= 1) {
      const o = r16(e + 8);
      return o >= 1 && o <= 8 ? o : 1;
    }
  }
  return 1;
}
