// The image header (IHDR) and the sizes that follow from it: bits per pixel, bytes per row,
// the filter's byte distance and Adam7's passes.
import { damaged, put32, u32, PngError } from './chunks';

export interface Header {
  width: number;
  height: number;
  depth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colourType: number;
  interlaced: boolean;
  bitsPerPixel: number;
}

const channels: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const depths: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export function readHeader(data: Uint8Array | undefined): Header {
  if (!data || data.length !== 13) throw damaged('IHDR missing, not first, or not 13 bytes');
  const width = u32(data, 0);
  const height = u32(data, 4);
  const [depth, colourType, compression, filter, interlace] = data.subarray(8);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) throw damaged(`an image of ${width}×${height}`);
  if (!depths[colourType]?.includes(depth)) throw damaged(`colour type ${colourType} at ${depth} bits`);
  if (compression !== 0 || filter !== 0) throw new PngError('unsupported', `compression method ${compression}, filter method ${filter}`);
  if (interlace > 1) throw damaged(`interlace method ${interlace}`);
  return { width, height, depth, colourType, interlaced: interlace === 1, bitsPerPixel: depth * channels[colourType] };
}

/** IHDR for an output of width × height, never interlaced. */
export function writeHeader(h: Header, width: number, height: number): Uint8Array {
  const out = new Uint8Array(13);
  put32(out, 0, width);
  put32(out, 4, height);
  out.set([h.depth, h.colourType, 0, 0, 0], 8);
  return out;
}

/** Bytes in a row of `width` pixels, without its filter byte. */
export function rowBytes(h: Header, width: number): number {
  return Math.ceil((width * h.bitsPerPixel) / 8);
}

/** The distance, in bytes, to the byte of the pixel to the left that filters use. */
export function filterDistance(h: Header): number {
  return Math.max(1, h.bitsPerPixel >> 3);
}

/** Adam7: each pass's first column and row and its steps. */
export const ADAM7 = [
  { x: 0, y: 0, dx: 8, dy: 8 },
  { x: 4, y: 0, dx: 8, dy: 8 },
  { x: 0, y: 4, dx: 4, dy: 8 },
  { x: 2, y: 0, dx: 4, dy: 4 },
  { x: 0, y: 2, dx: 2, dy: 4 },
  { x: 1, y: 0, dx: 2, dy: 2 },
  { x: 0, y: 1, dx: 1, dy: 2 },
] as const;

/** The pixels of a pass of an image of width × height, in columns and rows (0 when empty). */
export function passSize(p: (typeof ADAM7)[number], width: number, height: number): { width: number; height: number } {
  const w = width > p.x ? Math.ceil((width - p.x) / p.dx) : 0;
  const hh = height > p.y ? Math.ceil((height - p.y) / p.dy) : 0;
  return w && hh ? { width: w, height: hh } : { width: 0, height: 0 };
}

/** The inflated size of an image of width × height: its rows (of every pass) with their filter bytes. */
export function filteredSize(h: Header, width: number, height: number): number {
  if (!h.interlaced) return height * (rowBytes(h, width) + 1);
  let total = 0;
  for (const p of ADAM7) {
    const s = passSize(p, width, height);
    if (s.width) total += s.height * (rowBytes(h, s.width) + 1);
  }
  return total;
}
