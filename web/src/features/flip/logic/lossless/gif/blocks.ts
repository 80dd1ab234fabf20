// The block structure of a GIF (87a and 89a), read without decoding any image: the logical
// screen, the colour tables, each image's descriptor with the graphic control that applies to
// it, and the other extensions as their bytes. Everything is a view into the input; a file that
// ends inside a block, or a block that cannot be what it says, is a failure with a reason,
// never an exception.
import { hasAscii, u16, u8 } from '../../../../../lib/image/bytes';

export type GifFailure = { reason: 'notGif' | 'truncated' | 'damaged' | 'tooLarge'; detail: string };

/** A graphic control extension's fields, as stored. */
export interface Control {
  /** Reserved bits, disposal method (bits 2–4), user input (bit 1), transparency (bit 0). */
  packed: number;
  /** In hundredths of a second. */
  delay: number;
  transparentIndex: number;
}

export interface Image {
  kind: 'image';
  left: number;
  top: number;
  width: number;
  height: number;
  /** Local table flag, interlace (bit 6), sort, reserved bits and the local table's size. */
  packed: number;
  localTable: Uint8Array | undefined;
  minCodeSize: number;
  /** Where the image data's first sub-block (its length byte) starts. */
  dataAt: number;
  /** The last graphic control before this image, as browsers apply it; undefined if none. */
  control: Control | undefined;
}

/**
 * Extensions kept as they are (all but graphic controls and plain text), one after another in
 * the file: each one's introducer, label, sub-blocks and terminator.
 */
export interface Extensions {
  kind: 'extensions';
  bytes: Uint8Array;
}

export interface Gif {
  version: 'GIF87a' | 'GIF89a';
  /** The logical screen, or the first image's extent when the file gives it as 0×0. */
  width: number;
  height: number;
  /** Global table flag, colour resolution, sort and the global table's size. */
  packed: number;
  background: number;
  aspect: number;
  globalTable: Uint8Array | undefined;
  blocks: (Image | Extensions)[];
  frames: number;
}

export const TRAILER = 0x3b;
export const IMAGE = 0x2c;
export const EXTENSION = 0x21;
export const GRAPHIC_CONTROL = 0xf9;
export const PLAIN_TEXT = 0x01;
export const INTERLACED = 0x40;

/** The size in bytes of the colour table that a packed field announces (none: 0). */
export function tableBytes(packed: number): number {
  return packed & 0x80 ? 3 << ((packed & 7) + 1) : 0;
}

/** The end of a run of data sub-blocks starting at `at` (after its terminator), or undefined when the file ends first. */
export function skipSubBlocks(b: Uint8Array, at: number): number | undefined {
  let pos = at;
  while (pos < b.length) {
    const n = b[pos];
    pos += 1 + n;
    if (n === 0) return pos;
  }
  return undefined;
}

const truncated = (what: string): GifFailure => ({ reason: 'truncated', detail: `the file ends inside ${what}` });

/**
 * `maxPixels` bounds what decoding the frames will cost: each counts the screen's pixels, or its
 * own when it is larger (its data runs over all of them). A file past it is refused at the frame
 * that passes it, before any more is read or kept.
 */
export function parseGif(b: Uint8Array, maxPixels: number): Gif | GifFailure {
  const version = hasAscii(b, 0, 'GIF87a') ? 'GIF87a' : hasAscii(b, 0, 'GIF89a') ? 'GIF89a' : undefined;
  if (!version) return { reason: 'notGif', detail: 'no GIF87a or GIF89a signature' };
  const packed = u8(b, 10);
  const background = u8(b, 11);
  const aspect = u8(b, 12);
  if (packed === undefined || background === undefined || aspect === undefined) return truncated('the logical screen descriptor');
  const globalEnd = 13 + tableBytes(packed);
  if (globalEnd > b.length) return truncated('the global colour table');
  const gif: Gif = {
    version,
    width: u16(b, 6, true)!,
    height: u16(b, 8, true)!,
    packed,
    background,
    aspect,
    globalTable: packed & 0x80 ? b.subarray(13, globalEnd) : undefined,
    blocks: [],
    frames: 0,
  };
  let control: Control | undefined;
  let cost = 0;
  // Where the last kept extension ends: one that starts there joins it in one view, so that a
  // file of many small extensions is not as many objects.
  let keptUntil = -1;
  let pos = globalEnd;
  // A file may stop after any whole block without its trailer, or go on with bytes that are no
  // block; browsers show what came before either, and so the result ends there too.
  while (pos < b.length && (b[pos] === IMAGE || b[pos] === EXTENSION)) {
    const at = pos;
    if (b[at] === EXTENSION) {
      const label = u8(b, at + 1);
      const end = label === undefined ? undefined : skipSubBlocks(b, at + 2);
      if (label === undefined || end === undefined) return truncated(`an extension at byte ${at}`);
      const last = gif.blocks.at(-1);
      if (label === GRAPHIC_CONTROL) {
        // One sub-block of 4 bytes: packed fields, delay, transparent index. A shorter one
        // controls nothing (browsers ignore it too).
        if (b[at + 2] >= 4) control = { packed: b[at + 3], delay: u16(b, at + 4, true)!, transparentIndex: b[at + 6] };
      } else if (label === PLAIN_TEXT) {
        // Dropped (see index.ts); a graphic control before it still applies to the next image,
        // as in browsers, which skip plain text.
      } else {
        if (last?.kind === 'extensions' && keptUntil === at) last.bytes = b.subarray(at - last.bytes.length, end);
        else gif.blocks.push({ kind: 'extensions', bytes: b.subarray(at, end) });
        keptUntil = end;
      }
      pos = end;
      continue;
    }
    if (at + 10 > b.length) return truncated(`the image descriptor at byte ${at}`);
    const imagePacked = b[at + 9];
    const tableEnd = at + 10 + tableBytes(imagePacked);
    const minCodeSize = u8(b, tableEnd);
    if (minCodeSize === undefined) return truncated(`image ${gif.frames + 1}'s colour table`);
    // The specification allows 2 to 8 (a 2-colour image still uses 2): the indices are of a
    // table of at most 256 colours.
    if (minCodeSize < 2 || minCodeSize > 8) return { reason: 'damaged', detail: `image ${gif.frames + 1} has an LZW minimum code size of ${minCodeSize}, not 2 to 8` };
    const end = skipSubBlocks(b, tableEnd + 1);
    if (end === undefined) return truncated(`image ${gif.frames + 1}'s data`);
    const image: Image = {
      kind: 'image',
      left: u16(b, at + 1, true)!,
      top: u16(b, at + 3, true)!,
      width: u16(b, at + 5, true)!,
      height: u16(b, at + 7, true)!,
      packed: imagePacked,
      localTable: imagePacked & 0x80 ? b.subarray(at + 10, tableEnd) : undefined,
      minCodeSize,
      dataAt: tableEnd + 1,
      control,
    };
    gif.blocks.push(image);
    control = undefined;
    gif.frames++;
    pos = end;
    if (gif.frames === 1 && (gif.width === 0 || gif.height === 0)) {
      // A screen given as 0×0 is the first image's extent, as decoders take it.
      gif.width = image.left + image.width;
      gif.height = image.top + image.height;
      if (gif.width === 0 || gif.height === 0) return { reason: 'damaged', detail: 'the screen and the first image are empty' };
    }
    cost += Math.max(gif.width * gif.height, image.width * image.height);
    if (cost > maxPixels) {
      return { reason: 'tooLarge', detail: `with frame ${gif.frames} of ${gif.width}×${gif.height}, ${cost} pixels to decode, more than the ${maxPixels} allowed` };
    }
  }
  if (gif.frames === 0) return { reason: 'damaged', detail: 'no image in the file' };
  return gif;
}
