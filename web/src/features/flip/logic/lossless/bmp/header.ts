// The parts of a BMP's headers that say where its pixels are and how they are packed. Every
// header version is read (OS/2 core, INFO, V2–V5); only what a rearrangement must change is
// interpreted, the rest is kept byte for byte by the writer.
import { hasAscii, inRange, u16, u32 } from '../../../../../lib/image/bytes';
import { BmpRefusal } from './refusal';

export const BI_RGB = 0;
export const BI_RLE8 = 1;
export const BI_RLE4 = 2;
export const BI_BITFIELDS = 3;
export const BI_ALPHABITFIELDS = 6;
const FILE_HEADER = 14;
const PROFILE_EMBEDDED = 0x4d424544; // 'MBED'
const PROFILE_LINKED = 0x4c494e4b; // 'LINK': the profile's file name, placed the same way

export interface BmpLayout {
  /** 12 for the OS/2 core header (16-bit sizes), 40 and more for the Windows ones. */
  headerSize: number;
  width: number;
  height: number;
  /** Rows stored first to last from the top (a negative height in the header). */
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  /** Where the pixel array starts and how many bytes of the file it may use. */
  pixelOffset: number;
  pixelEnd: number;
  /** A V5 header's embedded ICC profile (or linked profile's name): its bytes' place in the file. */
  profile?: { start: number; size: number };
}

/** Bytes of one stored row: whole bytes, padded to a multiple of 4. */
export function rowStride(width: number, bitsPerPixel: number): number {
  return Math.ceil((width * bitsPerPixel) / 32) * 4;
}

export function readLayout(b: Uint8Array): BmpLayout {
  if (!hasAscii(b, 0, 'BM')) throw new BmpRefusal('damaged', 'no BM signature');
  const pixelOffset = need(u32(b, 10, true), 'file header');
  const headerSize = need(u32(b, FILE_HEADER, true), 'file header');
  if (headerSize === 12) {
    const width = need(u16(b, 18, true), 'core header');
    const height = need(u16(b, 20, true), 'core header');
    const bitsPerPixel = need(u16(b, 24, true), 'core header');
    return check(b, { headerSize, width, height, topDown: false, bitsPerPixel, compression: BI_RGB, pixelOffset, pixelEnd: b.length });
  }
  if (headerSize < 40 || headerSize > 124 || !inRange(b, FILE_HEADER, headerSize)) {
    throw new BmpRefusal(headerSize < 40 ? 'unsupported' : 'damaged', `a DIB header of ${headerSize} bytes`);
  }
  const width = signed(need(u32(b, 18, true), 'info header'));
  const rawHeight = signed(need(u32(b, 22, true), 'info header'));
  const bitsPerPixel = need(u16(b, 28, true), 'info header');
  const compression = need(u32(b, 30, true), 'info header');
  const layout: BmpLayout = {
    headerSize,
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bitsPerPixel,
    compression,
    pixelOffset,
    pixelEnd: b.length,
  };
  const colourSpace = u32(b, FILE_HEADER + 56, true);
  if (headerSize >= 124 && (colourSpace === PROFILE_EMBEDDED || colourSpace === PROFILE_LINKED)) {
    const start = FILE_HEADER + need(u32(b, FILE_HEADER + 112, true), 'V5 header');
    const size = need(u32(b, FILE_HEADER + 116, true), 'V5 header');
    if (!inRange(b, start, size)) throw new BmpRefusal('damaged', `the ICC profile (${size} bytes at ${start}) runs past the end`);
    layout.profile = { start, size };
    // A profile after the pixels bounds them; one before them is kept with the headers.
    if (start >= pixelOffset) layout.pixelEnd = start;
  }
  return check(b, layout);
}

function check(b: Uint8Array, l: BmpLayout): BmpLayout {
  const packed = [1, 4, 8, 16, 24, 32];
  if (l.width <= 0 || l.height <= 0) throw new BmpRefusal('damaged', `a size of ${l.width}×${l.height}`);
  if (l.compression === BI_RLE8 || l.compression === BI_RLE4) {
    if (l.bitsPerPixel !== (l.compression === BI_RLE8 ? 8 : 4)) throw new BmpRefusal('damaged', `RLE with ${l.bitsPerPixel} bits per pixel`);
    if (l.topDown) throw new BmpRefusal('damaged', 'a top-down RLE bitmap');
  } else if (l.compression === BI_BITFIELDS || l.compression === BI_ALPHABITFIELDS) {
    if (l.bitsPerPixel !== 16 && l.bitsPerPixel !== 32) throw new BmpRefusal('damaged', `bit fields with ${l.bitsPerPixel} bits per pixel`);
  } else if (l.compression !== BI_RGB) {
    // BI_JPEG and BI_PNG hold a whole other file; CMYK variants are not drawn by browsers.
    throw new BmpRefusal('unsupported', `compression ${l.compression}`);
  } else if (!packed.includes(l.bitsPerPixel)) {
    throw new BmpRefusal('unsupported', `${l.bitsPerPixel} bits per pixel`);
  }
  if (l.pixelOffset < FILE_HEADER + l.headerSize || l.pixelOffset > l.pixelEnd) {
    throw new BmpRefusal('damaged', `pixels at ${l.pixelOffset}, inside the headers or past the end`);
  }
  if (l.compression !== BI_RLE8 && l.compression !== BI_RLE4 && l.pixelOffset + rowStride(l.width, l.bitsPerPixel) * l.height > l.pixelEnd) {
    throw new BmpRefusal('damaged', `${l.width}×${l.height} pixels do not fit in ${b.length} bytes`);
  }
  return l;
}

function need(v: number | undefined, part: string): number {
  if (v === undefined) throw new BmpRefusal('damaged', `the ${part} is cut short`);
  return v;
}

function signed(v: number): number {
  return v >= 0x80000000 ? v - 0x100000000 : v;
}
