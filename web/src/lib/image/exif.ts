// A JPEG's EXIF metadata, read and rewritten in place. The orientation tag decides which way up
// a photo is shown; once the pixels are turned upright it must say 1, or a viewer would turn the
// image a second time (the cropper also sets it to 1 before decoding, to get the stored pixels).
// Location (the GPS IFD) is removed unless the visitor keeps it, and the embedded thumbnail goes,
// since it still shows the old orientation and crop.
//
// EXIF is a TIFF structure: a header, then IFDs (directories of 12-byte entries) whose values
// sit inline when they fit in 4 bytes, else at an offset from the TIFF's start. Editing it in
// place keeps every offset valid, including those inside maker notes, which no one can parse.
// The input is untrusted: every read is bounds-checked, only a fixed set of IFDs is visited
// (so a loop of links cannot trap the reader), and nothing here throws on bad data.
import { concat, hasAscii, inRange, u16, u32 } from './bytes';
import { APP0, APP1, jpegHead } from './jpeg';

const EXIF_HEADER = 'Exif\0\0';

const ORIENTATION = 0x0112;
const EXIF_IFD = 0x8769;
const GPS_IFD = 0x8825;
const INTEROP_IFD = 0xa005;
const GPS_VERSION = 0x0000;
// Where IFD1 keeps its thumbnail: a JPEG (offset and length), or TIFF strips.
const THUMBNAIL_OFFSET = 0x0201;
const THUMBNAIL_LENGTH = 0x0202;
const STRIP_OFFSETS = 0x0111;
const STRIP_BYTE_COUNTS = 0x0117;

const SHORT = 3;
const LONG = 4;

/** Bytes per value of each TIFF field type. */
const typeSizes: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

interface Tiff {
  readonly b: Uint8Array;
  /** Byte order: 'II' (Intel) is little-endian, 'MM' (Motorola) big-endian. */
  readonly le: boolean;
  readonly ifd0: number;
}

interface Entry {
  readonly tag: number;
  readonly type: number;
  readonly count: number;
  /** Where the 12-byte entry starts. */
  readonly at: number;
  /** Where its value is: in the entry's last 4 bytes when it fits there, else at an offset. */
  readonly value: number;
  /** The value's length in bytes; undefined for a type this code does not know. */
  readonly size: number | undefined;
}

interface Ifd {
  readonly at: number;
  readonly entries: readonly Entry[];
  /** The offset of the next IFD (0 for none). */
  readonly next: number;
  /** One past the next-IFD field. */
  readonly end: number;
}

function openTiff(b: Uint8Array): Tiff | undefined {
  const le = hasAscii(b, 0, 'II') ? true : hasAscii(b, 0, 'MM') ? false : undefined;
  if (le === undefined || u16(b, 2, le) !== 42) return undefined;
  const ifd0 = u32(b, 4, le);
  return ifd0 === undefined ? undefined : { b, le, ifd0 };
}

/** The IFD at `at`, or undefined unless all of it (count, entries, next link) lies within the data after the header. */
function readIfd({ b, le }: Tiff, at: number): Ifd | undefined {
  const count = u16(b, at, le);
  if (count === undefined || at < 8 || !inRange(b, at, 2 + 12 * count + 4)) return undefined;
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const e = at + 2 + 12 * i;
    const tag = u16(b, e, le) ?? 0;
    const type = u16(b, e + 2, le) ?? 0;
    const n = u32(b, e + 4, le) ?? 0;
    const size = Object.hasOwn(typeSizes, type) ? typeSizes[type] * n : undefined;
    const value = size !== undefined && size > 4 ? (u32(b, e + 8, le) ?? 0) : e + 8;
    entries.push({ tag, type, count: n, at: e, value, size });
  }
  const end = at + 2 + 12 * count + 4;
  return { at, entries, next: u32(b, end - 4, le) ?? 0, end };
}

/** The offsets that the entries with `tag` (normally one) point to. */
function links(t: Tiff, ifd: Ifd, tag: number): number[] {
  return ifd.entries.filter((e) => e.tag === tag).map((e) => u32(t.b, e.at + 8, t.le) ?? 0);
}

/** The SHORT or LONG values of an entry, as far as they lie within the data. */
function values(t: Tiff, e: Entry): number[] {
  const out: number[] = [];
  const width = e.type === SHORT ? 2 : e.type === LONG ? 4 : 0;
  for (let i = 0; width > 0 && i < e.count; i++) {
    const v = width === 2 ? u16(t.b, e.value + 2 * i, t.le) : u32(t.b, e.value + 4 * i, t.le);
    if (v === undefined) break;
    out.push(v);
  }
  return out;
}

/** The TIFF part of the first APP1 Exif segment, as a view into the JPEG, and where it starts. */
function exifView(bytes: Uint8Array): { tiff: Uint8Array; start: number } | undefined {
  const segment = jpegHead(bytes)?.segments.find((s) => s.marker === APP1 && hasAscii(bytes, s.payload, EXIF_HEADER));
  if (!segment) return undefined;
  const start = segment.payload + EXIF_HEADER.length;
  return { tiff: bytes.subarray(start, segment.end), start };
}

/** The APP1 Exif segment payload of a JPEG (the bytes after the 'Exif\0\0' header, i.e. the TIFF structure), or undefined. */
export function readExif(bytes: Uint8Array): Uint8Array | undefined {
  // A copy: the JPEG's buffer may be transferred to a worker while this is still in use.
  return exifView(bytes)?.tiff.slice();
}

/** The eight EXIF orientations: 1 is upright as stored; what the others mean is in transform.ts. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** A valid orientation tag in IFD0: its value, and where in the JPEG that 16-bit value is. */
function orientationTag(bytes: Uint8Array): { orientation: Orientation; at: number; le: boolean } | undefined {
  const view = exifView(bytes);
  const t = view && openTiff(view.tiff);
  const ifd0 = t && readIfd(t, t.ifd0);
  // A single SHORT, as the standard has it and as browsers read it; anything else is ignored
  // by them too, so the image is upright as stored.
  const entry = ifd0?.entries.find((e) => e.tag === ORIENTATION);
  if (!view || !t || !entry || entry.type !== SHORT || entry.count < 1) return undefined;
  const o = u16(t.b, entry.value, t.le);
  return o !== undefined && o >= 1 && o <= 8 ? { orientation: o as Orientation, at: view.start + entry.value, le: t.le } : undefined;
}

/** The EXIF orientation (1–8) of a JPEG, or 1 when absent/unreadable; never throws. Handles big- and little-endian TIFF headers. */
export function jpegOrientation(bytes: Uint8Array): Orientation {
  return orientationTag(bytes)?.orientation ?? 1;
}

/**
 * A copy of a JPEG (or of its head) whose orientation tag says `value`, the same length with only
 * the tag's value changed; an unchanged copy when it has no tag that jpegOrientation reads.
 */
export function withOrientation(bytes: Uint8Array, value: Orientation): Uint8Array {
  const copy = bytes.slice();
  const tag = orientationTag(bytes);
  if (tag) write16(copy, tag.at, value, tag.le);
  return copy;
}

/** Whether the EXIF has GPS data (for the page to say "location removed"): a GPS IFD with more than its version. */
export function hasGps(tiff: Uint8Array): boolean {
  const t = openTiff(tiff);
  const ifd0 = t && readIfd(t, t.ifd0);
  if (!t || !ifd0) return false;
  return links(t, ifd0, GPS_IFD).some((at) => readIfd(t, at)?.entries.some((e) => e.tag !== GPS_VERSION) ?? false);
}

/** An IFD's own bytes and its out-of-line values, as [start, length] ranges. */
function ranges(ifd: Ifd): [number, number][] {
  const out: [number, number][] = [[ifd.at, ifd.end - ifd.at]];
  for (const e of ifd.entries) if (e.size !== undefined && e.size > 4) out.push([e.value, e.size]);
  return out;
}

function write16(b: Uint8Array, at: number, v: number, le: boolean): void {
  b[at + (le ? 0 : 1)] = v & 0xff;
  b[at + (le ? 1 : 0)] = (v >>> 8) & 0xff;
}

function write32(b: Uint8Array, at: number, v: number, le: boolean): void {
  write16(b, at + (le ? 0 : 2), v & 0xffff, le);
  write16(b, at + (le ? 2 : 0), v >>> 16, le);
}

/**
 * A copy of a TIFF/EXIF structure with the orientation set to 1 and, when stripGps, the GPS IFD
 * pointer removed from IFD0 (and the GPS IFD data zeroed). Returns undefined if it cannot be
 * parsed safely: every IFD that is kept (IFD0, Exif, Interoperability, and GPS when kept) must
 * lie within the data. Also drops the IFD1 thumbnail link, and zeroes the thumbnail.
 */
export function rewriteExif(tiff: Uint8Array, options: { stripGps: boolean }): Uint8Array | undefined {
  const t = openTiff(tiff);
  const ifd0 = t && readIfd(t, t.ifd0);
  if (!t || !ifd0) return undefined;

  // Bytes that kept structures use are never zeroed, even when a corrupt file makes a dropped
  // IFD overlap them.
  const keep = new Uint8Array(tiff.length);
  const zero: [number, number][] = [];
  const keepIfd = (ifd: Ifd) => {
    for (const [start, length] of ranges(ifd)) keep.fill(1, start, Math.min(start + length, tiff.length));
  };
  keep.fill(1, 0, 8); // the header
  keepIfd(ifd0);

  for (const at of links(t, ifd0, EXIF_IFD)) {
    const exif = readIfd(t, at);
    if (!exif) return undefined;
    keepIfd(exif);
    for (const interopAt of links(t, exif, INTEROP_IFD)) {
      const interop = readIfd(t, interopAt);
      if (!interop) return undefined;
      keepIfd(interop);
    }
  }
  for (const at of links(t, ifd0, GPS_IFD)) {
    const gps = readIfd(t, at);
    if (options.stripGps) {
      if (gps) zero.push(...ranges(gps));
    } else if (gps) keepIfd(gps);
    else return undefined;
  }
  const ifd1 = ifd0.next === 0 ? undefined : readIfd(t, ifd0.next);
  if (ifd1) {
    zero.push(...ranges(ifd1));
    const first = (tag: number) => {
      const e = ifd1.entries.find((x) => x.tag === tag);
      return e ? values(t, e) : [];
    };
    const [jpegAt] = first(THUMBNAIL_OFFSET);
    const [jpegLength] = first(THUMBNAIL_LENGTH);
    if (jpegAt !== undefined && jpegLength !== undefined) zero.push([jpegAt, jpegLength]);
    const strips = first(STRIP_OFFSETS);
    const counts = first(STRIP_BYTE_COUNTS);
    strips.forEach((at, i) => zero.push([at, counts[i] ?? 0]));
  }

  const out = tiff.slice();
  for (const [start, length] of zero) {
    for (let i = Math.max(start, 0); i < Math.min(start + length, out.length); i++) if (!keep[i]) out[i] = 0;
  }

  // IFD0 written anew in its own place: fewer entries when GPS goes, the orientation an inline
  // SHORT 1 whatever it was, and no link to IFD1. Bytes freed at its end stay zero.
  const entries = ifd0.entries.filter((e) => !(options.stripGps && e.tag === GPS_IFD));
  const ifd = new Uint8Array(ifd0.end - ifd0.at);
  write16(ifd, 0, entries.length, t.le);
  entries.forEach((e, i) => {
    const at = 2 + 12 * i;
    ifd.set(tiff.subarray(e.at, e.at + 12), at);
    if (e.tag === ORIENTATION) {
      write16(ifd, at + 2, SHORT, t.le);
      write32(ifd, at + 4, 1, t.le);
      ifd.fill(0, at + 8, at + 12);
      write16(ifd, at + 8, 1, t.le);
    }
  });
  out.set(ifd, ifd0.at);
  return out;
}

const MAX_SEGMENT = 0xffff;

/**
 * Inserts an APP1 Exif segment (with the 'Exif\0\0' header) into a JPEG right after SOI (after
 * APP0/JFIF if present), replacing any existing APP1 Exif. Throws a RangeError if `jpeg` does
 * not start with SOI or the TIFF does not fit in one segment (64 KiB).
 */
export function withExif(jpeg: Uint8Array, tiff: Uint8Array): Uint8Array {
  const head = jpegHead(jpeg);
  if (!head) throw new RangeError('not a JPEG: no SOI marker');
  const length = 2 + EXIF_HEADER.length + tiff.length;
  if (length > MAX_SEGMENT) throw new RangeError(`EXIF of ${tiff.length} bytes does not fit in a JPEG segment`);

  const segment = new Uint8Array(2 + length);
  segment.set([0xff, APP1, length >>> 8, length & 0xff]);
  for (let i = 0; i < EXIF_HEADER.length; i++) segment[4 + i] = EXIF_HEADER.charCodeAt(i);
  segment.set(tiff, 4 + EXIF_HEADER.length);

  // JFIF requires its APP0 to come first; the Exif segment follows it.
  const parts: Uint8Array[] = [jpeg.subarray(0, 2)];
  let i = 0;
  for (; i < head.segments.length && head.segments[i].marker === APP0; i++) {
    parts.push(jpeg.subarray(head.segments[i].start, head.segments[i].end));
  }
  parts.push(segment);
  for (const s of head.segments.slice(i)) {
    if (!(s.marker === APP1 && hasAscii(jpeg, s.payload, EXIF_HEADER))) parts.push(jpeg.subarray(s.start, s.end));
  }
  parts.push(jpeg.subarray(head.rest));
  return concat(parts);
}

export type MetadataChoice = 'strip' | 'keep' | 'keep-without-location';

/**
 * A JPEG's output with the EXIF the visitor chose to keep from `input` (orientation reset to 1),
 * and whether location data was dropped on the way.
 */
export function withChosenExif(output: Uint8Array, input: Uint8Array, choice: MetadataChoice): { bytes: Uint8Array; locationRemoved: boolean } {
  const exif = readExif(input);
  const gps = exif !== undefined && hasGps(exif);
  if (!exif || choice === 'strip') return { bytes: output, locationRemoved: gps };
  const tiff = rewriteExif(exif, { stripGps: choice === 'keep-without-location' });
  return { bytes: tiff ? withExif(output, tiff) : output, locationRemoved: gps && choice !== 'keep' };
}

