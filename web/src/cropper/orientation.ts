// EXIF orientation, read from a JPEG's own bytes (APP1 "Exif" → TIFF IFD0 → tag 0x0112).
import type { Matrix, Size } from './geometry';

export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface OrientationTag {
  orientation: Orientation;
  /** Where the tag's 16-bit value is, to rewrite it; absent when there is no valid tag. */
  offset?: number;
  littleEndian?: boolean;
}

/** Bytes enough to hold every APP segment a JPEG may put before its orientation. */
export const ORIENTATION_HEAD_BYTES = 256 * 1024;

const NONE: OrientationTag = { orientation: 1 };

/** The orientation of a JPEG (1, upright, for anything else, a missing tag or a damaged file). */
export function readOrientation(bytes: Uint8Array): OrientationTag {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  if (n < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return NONE;
  let p = 2;
  while (p + 4 <= n) {
    if (bytes[p] !== 0xff) return NONE;
    const marker = bytes[p + 1]!;
    if (marker === 0xff) {
      p++; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return NONE; // image data or the end: no more metadata
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2; // markers without a length
      continue;
    }
    const length = view.getUint16(p + 2);
    if (length < 2) return NONE;
    const end = Math.min(n, p + 2 + length);
    if (marker === 0xe1 && end - p >= 10 && exifHeader(bytes, p + 4)) {
      const tag = readTiff(view, p + 10, end);
      if (tag) return tag;
    }
    p += 2 + length;
  }
  return NONE;
}

function exifHeader(b: Uint8Array, p: number): boolean {
  // "Exif\0\0"
  return b[p] === 0x45 && b[p + 1] === 0x78 && b[p + 2] === 0x69 && b[p + 3] === 0x66 && b[p + 4] === 0 && b[p + 5] === 0;
}

function readTiff(view: DataView, start: number, end: number): OrientationTag | undefined {
  if (start + 8 > end) return undefined;
  const order = view.getUint16(start);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const le = order === 0x4949;
  if (view.getUint16(start + 2, le) !== 42) return undefined;
  const ifd = start + view.getUint32(start + 4, le);
  if (ifd + 2 > end) return undefined;
  const count = view.getUint16(ifd, le);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return undefined;
    if (view.getUint16(entry, le) !== 0x0112) continue;
    const type = view.getUint16(entry + 2, le);
    if (type !== 3 || view.getUint32(entry + 4, le) < 1) return undefined; // SHORT
    const value = view.getUint16(entry + 8, le);
    return value >= 1 && value <= 8 ? { orientation: value as Orientation, offset: entry + 8, littleEndian: le } : undefined;
  }
  return undefined;
}

/** A copy of `bytes` whose orientation tag says `value` (1: decoders then leave the pixels as stored). */
export function withOrientation(bytes: Uint8Array, tag: OrientationTag, value: Orientation): Uint8Array {
  const copy = bytes.slice();
  if (tag.offset !== undefined) new DataView(copy.buffer).setUint16(tag.offset, value, tag.littleEndian);
  return copy;
}

/** Orientations 5–8 turn the image a quarter: its upright size swaps the stored width and height. */
export function orientedSize(orientation: Orientation, stored: Size): Size {
  return orientation >= 5 ? { width: stored.height, height: stored.width } : stored;
}

/** Stored pixels → upright pixels, for an image stored at `stored` size. */
export function orientationMatrix(orientation: Orientation, stored: Size): Matrix {
  const { width: w, height: h } = stored;
  switch (orientation) {
    case 2: // mirrored
      return [-1, 0, 0, 1, w, 0];
    case 3: // upside down
      return [-1, 0, 0, -1, w, h];
    case 4: // mirrored upside down
      return [1, 0, 0, -1, 0, h];
    case 5: // transposed
      return [0, 1, 1, 0, 0, 0];
    case 6: // turn a quarter clockwise
      return [0, 1, -1, 0, h, 0];
    case 7: // transversed
      return [0, -1, -1, 0, h, w];
    case 8: // turn a quarter counter-clockwise
      return [0, -1, 1, 0, 0, w];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}
