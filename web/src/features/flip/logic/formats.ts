// What a file is, from its bytes alone (a name or a MIME type can lie, and pasted images have
// neither), what it can be written as, and under which name. The header readers give the size
// and animation of an image before it is decoded, so the page can refuse or strip-process a
// huge image instead of letting the browser run out of memory. Every reader takes untrusted
// bytes: a truncated or corrupt file gives undefined or false, never an exception.
import { hasAscii, hasBytes, u32 } from '../../../lib/image/bytes';
import { avifSize, bmpSize, jpegSize, pngChunks, pngSignature, pngSize, scanGif, size, webpChunks, webpSize, type Size } from './headers';
import { rootStart } from './xml';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'avif' | 'heic' | 'svg';
export type OutputChoice = 'same' | 'png' | 'jpeg' | 'webp';

// The sizes of the BMP info headers: core (12), OS/2 (16, 64), Windows v1–v5 (40–124). A file
// that starts with "BM" but has none of them is more likely text than a bitmap.
const bmpHeaderSizes = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/** Recognises the format from the first bytes (magic numbers; SVG by a leading XML/`<svg` after optional BOM/whitespace/comments/doctype), never from the name or MIME type. */
export function sniffFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (hasBytes(bytes, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (hasBytes(bytes, 0, pngSignature)) return 'png';
  if (hasAscii(bytes, 0, 'GIF87a') || hasAscii(bytes, 0, 'GIF89a')) return 'gif';
  if (hasAscii(bytes, 0, 'RIFF') && hasAscii(bytes, 8, 'WEBP')) return 'webp';
  if (hasAscii(bytes, 0, 'BM') && bmpHeaderSizes.has(u32(bytes, 14, true) ?? 0)) return 'bmp';
  // AVIF first: an AVIF file also names the generic HEIF brands (mif1, msf1).
  if (hasBrand(bytes, avifBrands)) return 'avif';
  if (hasBrand(bytes, heifBrands)) return 'heic';
  if (isSvg(bytes)) return 'svg';
  return undefined;
}

const avifBrands = ['avif', 'avis'];
// HEVC-coded HEIF images and sequences (what iPhones write), and the generic HEIF brands.
const heifBrands = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1'];

/** An ISO media file (ftyp box first) whose major or a compatible brand is one of `brands`. */
function hasBrand(b: Uint8Array, brands: readonly string[]): boolean {
  if (!hasAscii(b, 4, 'ftyp')) return false;
  const end = Math.min(u32(b, 0, false) ?? 0, b.length);
  const named = (at: number) => brands.some((brand) => hasAscii(b, at, brand));
  if (named(8)) return true;
  // After the major brand (8) and its version (12), the compatible brands.
  for (let at = 16; at + 4 <= end; at += 4) if (named(at)) return true;
  return false;
}

// Comments and a DOCTYPE before the root rarely take more than a few kilobytes; this bounds the
// work for a large file that is not an SVG.
const SVG_SNIFF_BYTES = 64 * 1024;

/** Text whose first element, after an optional declaration, comments and DOCTYPE, is <svg> (any prefix). */
function isSvg(b: Uint8Array): boolean {
  const head = b.subarray(0, SVG_SNIFF_BYTES);
  const encoding = hasBytes(head, 0, [0xff, 0xfe]) ? 'utf-16le' : hasBytes(head, 0, [0xfe, 0xff]) ? 'utf-16be' : 'utf-8';
  // Not fatal: the cut at SVG_SNIFF_BYTES may split a character, and only markup matters here.
  const text = new TextDecoder(encoding).decode(head);
  const start = rootStart(text);
  if (start === undefined) return false;
  const name = /^<([^\s/>]+)/.exec(text.slice(start, start + 256))?.[1] ?? '';
  return name.slice(name.indexOf(':') + 1) === 'svg';
}

export const mimeTypes: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
  avif: 'image/avif',
  heic: 'image/heic',
  svg: 'image/svg+xml',
};

export const extensions: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  bmp: 'bmp',
  avif: 'avif',
  heic: 'heic',
  svg: 'svg',
};

/** The formats a file is written in by the browser: what browsers can encode, and SVG, which is edited as text. */
export type WritableFormat = Exclude<ImageFormat, 'gif' | 'bmp' | 'avif' | 'heic'>;

/**
 * The format a browser writes: 'same' keeps the input's, except formats a browser cannot encode
 * (gif, bmp, avif → png; a HEIC photo → jpeg). SVG stays SVG for 'same'. A file with a lossless
 * rewriter (logic/lossless) is written in its own format by that instead, when it can be.
 */
export function outputFormat(input: ImageFormat, choice: OutputChoice): WritableFormat {
  if (choice !== 'same') return choice;
  if (input === 'heic') return 'jpeg';
  return input === 'gif' || input === 'bmp' || input === 'avif' ? 'png' : input;
}

// The extensions taken off a name before the suffix goes on. Only image ones: in
// "my.holiday" or "scan 10.30" the part after the dot is part of the name.
const imageExtensions = new Set([
  'jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'pjp', 'png', 'apng', 'webp', 'gif', 'bmp', 'dib',
  'avif', 'svg', 'svgz', 'heic', 'heif', 'tif', 'tiff', 'ico',
]);

// Illegal on Windows or macOS (where ':' was the separator), and control characters, which
// no file system wants; also the bidirectional overrides, which can make "gpj.exe" read as
// "exe.jpg".
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const illegal = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

// Device names that Windows will not open as files, whatever the extension.
const reserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

// The longest name most file systems take, in UTF-8 bytes.
const MAX_NAME_BYTES = 255;

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

function clean(s: string): string {
  return s.replace(illegal, '').trim();
}

/**
 * `photo.jpeg` + jpeg → `photo-flipped.jpg`; keeps the base name (also unicode, spaces, several
 * dots: `my.holiday.png` → `my.holiday-flipped.png`), a name without extension gets one, an
 * empty name becomes `image-flipped.png`; strips characters illegal in file names on
 * Windows/macOS (/\:*?"<>| and control chars). Only an image extension is replaced.
 */
export function outputName(name: string, format: ImageFormat, suffix = 'flipped'): string {
  let base = clean(name);
  const dot = base.lastIndexOf('.');
  if (dot >= 0 && imageExtensions.has(base.slice(dot + 1).toLowerCase())) base = base.slice(0, dot).trim();
  if (base === '') base = 'image';
  const tail = clean(suffix);
  const ext = `.${extensions[format]}`;
  let stem = tail === '' ? base : `${base}-${tail}`;
  if (reserved.test(stem.split('.')[0].trim())) stem = `_${stem}`;
  // Shorten the original name, not the suffix or extension, one code point at a time so
  // that no character is split.
  const chars = Array.from(base);
  while (utf8Length(stem + ext) > MAX_NAME_BYTES && chars.length > 1) {
    chars.pop();
    stem = tail === '' ? chars.join('') : `${chars.join('')}-${tail}`;
  }
  return stem + ext;
}

/** Makes names unique within a batch (for a ZIP): second `a-flipped.png` becomes `a-flipped (2).png`. */
export function uniqueNames(names: readonly string[]): string[] {
  // Compared as the file systems that unpack the ZIP would: Windows and macOS ignore case,
  // and macOS also the Unicode normal form.
  const key = (n: string) => n.normalize('NFC').toLowerCase();
  // A name given in the batch stays its first holder's, even if a renamed one comes before.
  const given = new Set(names.map(key));
  const used = new Set<string>();
  return names.map((name) => {
    if (!used.has(key(name))) {
      used.add(key(name));
      return name;
    }
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; ; n++) {
      const candidate = `${stem} (${n})${ext}`;
      const k = key(candidate);
      if (!used.has(k) && !given.has(k)) {
        used.add(k);
        return candidate;
      }
    }
  });
}

/**
 * The frames of an animation from its headers (GIF image descriptors, the APNG acTL count,
 * WebP ANMF chunks), 1 for a still image. Bounded by the file: a GIF frame takes some bytes.
 */
export function frameCount(bytes: Uint8Array, format: ImageFormat): number {
  switch (format) {
    case 'gif':
      return Math.max(1, scanGif(bytes, Infinity)?.frames ?? 1);
    case 'png': {
      const acTL = pngChunks(bytes).find((c) => c.type === 'acTL' && c.length >= 8);
      return Math.max(1, acTL ? (u32(bytes, acTL.at, false) ?? 1) : 1);
    }
    case 'webp':
      return Math.max(1, webpChunks(bytes).filter((c) => c.type === 'ANMF').length);
    default:
      return 1;
  }
}

/**
 * Bytes per pixel of the decoded samples: a PNG's in its own depth (a 16-bit RGBA pixel is 8
 * bytes), a GIF's palette indices (1), RGBA for the rest (4).
 */
export function decodedPixelBytes(bytes: Uint8Array, format: ImageFormat): number {
  if (format === 'gif') return 1;
  if (format !== 'png') return 4;
  const depth = bytes[24] ?? 8;
  const channels = [1, 0, 3, 1, 2, 0, 4][bytes[25] ?? 6] || 4;
  return depth === 16 ? channels * 2 : channels;
}

/**
 * Whether a WebP holds lossy (VP8) image data, still or in any frame of an animation: kept as
 * WebP, that part is compressed again, at the quality chosen.
 */
export function isLossyWebp(bytes: Uint8Array): boolean {
  return webpChunks(bytes).some((c) => {
    if (c.type === 'VP8 ') return true;
    if (c.type !== 'ANMF') return false;
    // A frame: 16 bytes of position, size, duration and flags, then its own chunks.
    for (let at = c.at + 16; at + 8 <= Math.min(c.at + c.length, bytes.length); ) {
      if (hasAscii(bytes, at, 'VP8 ')) return true;
      const length = u32(bytes, at + 4, true) ?? 0;
      at += 8 + length + (length % 2);
    }
    return false;
  });
}

/** Animated GIF (more than one image descriptor) / animated PNG (acTL chunk before IDAT) / animated WebP (ANIM chunk). */
export function isAnimated(bytes: Uint8Array, format: ImageFormat): boolean {
  switch (format) {
    case 'gif':
      return (scanGif(bytes, 2)?.frames ?? 0) > 1;
    case 'png':
      return pngChunks(bytes).some((c) => c.type === 'acTL');
    case 'webp':
      return webpChunks(bytes).some((c) => c.type === 'ANIM');
    default:
      return false;
  }
}

/**
 * Width and height from the header without decoding (JPEG SOFn, PNG IHDR, GIF, BMP, WebP
 * VP8/VP8L/VP8X, AVIF ispe); undefined if unknown/corrupt. The size is the stored one, before
 * any EXIF orientation. Used to refuse or strip-process huge images before decoding.
 */
export function headerSize(bytes: Uint8Array, format: ImageFormat): Size | undefined {
  switch (format) {
    case 'jpeg':
      return jpegSize(bytes);
    case 'png':
      return pngSize(bytes);
    case 'gif': {
      const gif = scanGif(bytes, 1);
      return gif && size(gif.width, gif.height);
    }
    case 'bmp':
      return bmpSize(bytes);
    case 'webp':
      return webpSize(bytes);
    case 'avif':
    case 'heic':
      return avifSize(bytes); // HEIF's 'ispe', as AVIF's
    case 'svg':
      return undefined;
  }
}
