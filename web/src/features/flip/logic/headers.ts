// Readers of the headers of raster formats: size and animation, found without decoding the
// image. Each takes untrusted bytes and walks only structures that it bounds-checks, so a
// truncated or corrupt file gives undefined (or no chunks), never an exception or a long loop.
import { hasAscii, hasBytes, u16, u32, u8 } from '../../../lib/image/bytes';
import { isFrameHeader, jpegHead } from '../../../lib/image/jpeg';

export const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type Size = { width: number; height: number };

export function size(width: number | undefined, height: number | undefined): Size | undefined {
  return width !== undefined && height !== undefined && width > 0 && height > 0 ? { width, height } : undefined;
}

export function jpegSize(b: Uint8Array): Size | undefined {
  const frame = jpegHead(b)?.segments.find((s) => isFrameHeader(s.marker));
  // After the length: precision (1 byte), height, width. A height of 0 is defined later in
  // the data (DNL), which is as good as unknown here.
  return frame && frame.end - frame.payload >= 6 ? size(u16(b, frame.payload + 3, false), u16(b, frame.payload + 1, false)) : undefined;
}

export function pngSize(b: Uint8Array): Size | undefined {
  // IHDR must come first: width and height after its length and type.
  return hasBytes(b, 0, pngSignature) && hasAscii(b, 12, 'IHDR') ? size(u32(b, 16, false), u32(b, 20, false)) : undefined;
}

export function bmpSize(b: Uint8Array): Size | undefined {
  const header = u32(b, 14, true);
  if (header === undefined || !hasAscii(b, 0, 'BM')) return undefined;
  // The old core header has 16-bit sizes; the others 32-bit signed ones, where a negative
  // height means the rows are stored top down.
  if (header === 12) return size(u16(b, 18, true), u16(b, 20, true));
  const width = u32(b, 18, true);
  const height = u32(b, 22, true);
  if (width === undefined || height === undefined || width >= 0x80000000) return undefined;
  return size(width, height >= 0x80000000 ? 0x100000000 - height : height);
}

export interface Chunk {
  readonly type: string;
  /** Where the chunk's data starts, and its length. */
  readonly at: number;
  readonly length: number;
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
}

/** The chunks of a PNG before the image data (IDAT): what can change how it is read. */
export function pngChunks(b: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  if (!hasBytes(b, 0, pngSignature)) return chunks;
  for (let pos = 8; pos + 8 <= b.length; ) {
    const length = u32(b, pos, false) ?? 0;
    const type = fourcc(b, pos + 4);
    if (type === 'IDAT' || type === 'IEND') break;
    chunks.push({ type, at: pos + 8, length });
    pos += 12 + length; // length, type, data, CRC
  }
  return chunks;
}

/** The chunks of a WebP (RIFF) file, within the file and the RIFF size. */
export function webpChunks(b: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  if (!hasAscii(b, 0, 'RIFF') || !hasAscii(b, 8, 'WEBP')) return chunks;
  const end = Math.min(b.length, 8 + (u32(b, 4, true) ?? 0));
  for (let pos = 12; pos + 8 <= end; ) {
    const length = u32(b, pos + 4, true) ?? 0;
    chunks.push({ type: fourcc(b, pos), at: pos + 8, length });
    pos += 8 + length + (length % 2); // chunks are padded to an even length
  }
  return chunks;
}

function u24(b: Uint8Array, at: number): number | undefined {
  const low = u16(b, at, true);
  const high = u8(b, at + 2);
  return low === undefined || high === undefined ? undefined : low + high * 0x10000;
}

export function webpSize(b: Uint8Array): Size | undefined {
  const first = webpChunks(b)[0];
  if (!first) return undefined;
  const at = first.at;
  switch (first.type) {
    case 'VP8X': {
      // Flags and reserved (4 bytes), then canvas width - 1 and height - 1 in 24 bits each.
      const w = u24(b, at + 4);
      const h = u24(b, at + 7);
      return w === undefined || h === undefined ? undefined : size(w + 1, h + 1);
    }
    case 'VP8 ': {
      // A key frame: 3 bytes of frame tag, the start code 9d 01 2a, then 14-bit sizes (the
      // top 2 bits of each are a scaling hint).
      if (!hasBytes(b, at + 3, [0x9d, 0x01, 0x2a])) return undefined;
      const w = u16(b, at + 6, true);
      const h = u16(b, at + 8, true);
      return w === undefined || h === undefined ? undefined : size(w & 0x3fff, h & 0x3fff);
    }
    case 'VP8L': {
      // The signature 0x2f, then width - 1 and height - 1 in 14 bits each, least significant first.
      const bits = u32(b, at + 1, true);
      if (u8(b, at) !== 0x2f || bits === undefined) return undefined;
      return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    default:
      return undefined;
  }
}

export interface GifScan {
  frames: number;
  width: number;
  height: number;
}

/**
 * Walks a GIF's blocks, counting image descriptors up to `enough`. The size is the logical
 * screen's, or the first frame's extent when the screen is given as 0×0, as decoders do.
 */
export function scanGif(b: Uint8Array, enough: number): GifScan | undefined {
  if (!hasAscii(b, 0, 'GIF87a') && !hasAscii(b, 0, 'GIF89a')) return undefined;
  const screenWidth = u16(b, 6, true);
  const screenHeight = u16(b, 8, true);
  const flags = u8(b, 10);
  if (screenWidth === undefined || screenHeight === undefined || flags === undefined) return undefined;
  const scan: GifScan = { frames: 0, width: screenWidth, height: screenHeight };
  const colourTable = (f: number) => (f & 0x80 ? 3 << ((f & 7) + 1) : 0);
  // Data sub-blocks: a length byte and that many bytes, until a length of 0.
  const skipBlocks = (pos: number): number | undefined => {
    while (pos < b.length) {
      const n = b[pos];
      pos += 1 + n;
      if (n === 0) return pos;
    }
    return undefined;
  };
  let pos: number | undefined = 13 + colourTable(flags);
  while (pos !== undefined && pos < b.length && scan.frames < enough) {
    const block = b[pos];
    if (block === 0x2c) {
      // Image descriptor: left, top, width, height, flags; then a colour table, the LZW code
      // size and the image data.
      const left = u16(b, pos + 1, true);
      const top = u16(b, pos + 3, true);
      const width = u16(b, pos + 5, true);
      const height = u16(b, pos + 7, true);
      const f = u8(b, pos + 9);
      if (left === undefined || top === undefined || width === undefined || height === undefined || f === undefined) break;
      scan.frames++;
      if (scan.frames === 1 && (scan.width === 0 || scan.height === 0)) {
        scan.width = left + width;
        scan.height = top + height;
      }
      pos = skipBlocks(pos + 10 + colourTable(f) + 1);
    } else if (block === 0x21) {
      pos = skipBlocks(pos + 2); // extension: introducer, label, sub-blocks
    } else {
      break; // the trailer (0x3b), or something that is not a block
    }
  }
  return scan;
}

/**
 * The largest image spatial extent ('ispe') in an AVIF's item properties: the full size of the
 * primary image (a grid's tiles are smaller), before any rotation property.
 */
export function avifSize(b: Uint8Array): Size | undefined {
  let best: Size | undefined;
  // The boxes to descend into, and how many bytes of version and flags a full box has first.
  const containers: Readonly<Record<string, number>> = { meta: 4, iprp: 0, ipco: 0 };
  const walk = (from: number, to: number, depth: number) => {
    for (let pos = from; pos + 8 <= to; ) {
      let length = u32(b, pos, false) ?? 0;
      const type = fourcc(b, pos + 4);
      let header = 8;
      if (length === 1) {
        // A 64-bit size; more than 2^53 cannot be in memory anyway.
        const high = u32(b, pos + 8, false) ?? 0;
        length = high * 0x100000000 + (u32(b, pos + 12, false) ?? 0);
        header = 16;
      } else if (length === 0) length = to - pos; // to the end
      if (length < header || pos + length > to) return;
      if (Object.hasOwn(containers, type) && depth < 3) walk(pos + header + containers[type], pos + length, depth + 1);
      if (type === 'ispe') {
        const s = size(u32(b, pos + header + 4, false), u32(b, pos + header + 8, false));
        if (s && (!best || s.width * s.height > best.width * best.height)) best = s;
      }
      pos += length;
    }
  };
  walk(0, b.length, 0);
  return best;
}
