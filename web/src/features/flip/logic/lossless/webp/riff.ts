// The WebP container: RIFF chunks, the VP8X header, ANIM and the ANMF frames with the chunks
// inside them. Nothing is decoded here; every size is checked against the bytes that hold it.
import { hasAscii, u16, u32, u8 } from '../../../../../lib/image/bytes';
import { WebpRefusal } from './refusal';

export interface Chunk {
  fourcc: string;
  /** The whole chunk (header, payload, padding) and its payload. */
  bytes: Uint8Array;
  payload: Uint8Array;
}

export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Milliseconds. */
  duration: number;
  /** Alpha-blend onto the canvas (false: overwrite). */
  blend: boolean;
  /** Clear the frame's rectangle to transparent after it is shown. */
  dispose: boolean;
  /** ALPH (optional) and VP8, or VP8L. */
  alph?: Chunk;
  image: Chunk;
}

export interface WebpFile {
  canvasWidth: number;
  canvasHeight: number;
  /** VP8X flags as read (0 for a simple file). */
  flags: number;
  iccp?: Chunk;
  exif?: Chunk;
  xmp?: Chunk;
  /** ANIM's payload: background colour (B, G, R, A) and loop count. */
  anim?: Uint8Array;
  frames: Frame[];
  animated: boolean;
}

export function readChunks(b: Uint8Array, start: number, end: number): Chunk[] {
  const chunks: Chunk[] = [];
  let at = start;
  while (at + 8 <= end) {
    const size = u32(b, at + 4, true)!;
    const padded = size + (size & 1);
    if (at + 8 + size > end) throw new WebpRefusal('damaged', `chunk ${fourcc(b, at)} of ${size} bytes runs past the end`);
    chunks.push({ fourcc: fourcc(b, at), bytes: b.subarray(at, Math.min(end, at + 8 + padded)), payload: b.subarray(at + 8, at + 8 + size) });
    at += 8 + padded;
  }
  return chunks;
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
}

function u24(b: Uint8Array, at: number): number {
  const lo = u16(b, at, true);
  const hi = u8(b, at + 2);
  if (lo === undefined || hi === undefined) throw new WebpRefusal('damaged', 'a header is cut short');
  return lo | (hi << 16);
}

export function readWebp(b: Uint8Array): WebpFile {
  if (!hasAscii(b, 0, 'RIFF') || !hasAscii(b, 8, 'WEBP')) throw new WebpRefusal('damaged', 'not a RIFF WEBP file');
  const riffEnd = 8 + (u32(b, 4, true) ?? 0);
  if (riffEnd > b.length) throw new WebpRefusal('damaged', `the file is cut short: ${b.length} of ${riffEnd} bytes`);
  const chunks = readChunks(b, 12, riffEnd);
  const first = chunks[0];
  if (!first) throw new WebpRefusal('damaged', 'no chunks');
  if (first.fourcc === 'VP8 ' || first.fourcc === 'VP8L') {
    const size = bitstreamSize(first);
    return { canvasWidth: size.width, canvasHeight: size.height, flags: 0, frames: [{ x: 0, y: 0, ...size, duration: 0, blend: false, dispose: false, image: first }], animated: false };
  }
  if (first.fourcc !== 'VP8X' || first.payload.length < 10) throw new WebpRefusal('damaged', `a first chunk ${first.fourcc}`);
  const p = first.payload;
  const file: WebpFile = { canvasWidth: u24(p, 4) + 1, canvasHeight: u24(p, 7) + 1, flags: p[0], frames: [], animated: (p[0] & 0x02) !== 0 };
  let alph: Chunk | undefined;
  for (const c of chunks.slice(1)) {
    if (c.fourcc === 'ICCP') file.iccp = c;
    else if (c.fourcc === 'EXIF') file.exif = c;
    else if (c.fourcc === 'XMP ') file.xmp = c;
    else if (c.fourcc === 'ANIM' && c.payload.length >= 6) file.anim = c.payload;
    else if (c.fourcc === 'ANMF') file.frames.push(readFrame(c));
    else if (c.fourcc === 'ALPH') alph = c;
    else if ((c.fourcc === 'VP8 ' || c.fourcc === 'VP8L') && !file.animated) {
      file.frames.push({ x: 0, y: 0, ...bitstreamSize(c), duration: 0, blend: false, dispose: false, alph: c.fourcc === 'VP8 ' ? alph : undefined, image: c });
    }
  }
  if (file.frames.length === 0) throw new WebpRefusal('damaged', 'no image data');
  if (file.animated && !file.anim) throw new WebpRefusal('damaged', 'an animation without ANIM');
  const still = file.frames[0];
  if (!file.animated && (file.frames.length !== 1 || still.width !== file.canvasWidth || still.height !== file.canvasHeight)) {
    throw new WebpRefusal('damaged', `a still canvas of ${file.canvasWidth}×${file.canvasHeight} holding ${file.frames.length} images, the first ${still.width}×${still.height}`);
  }
  for (const f of file.frames) {
    if (f.x + f.width > file.canvasWidth || f.y + f.height > file.canvasHeight) {
      throw new WebpRefusal('damaged', `a ${f.width}×${f.height} frame at (${f.x}, ${f.y}) outside the ${file.canvasWidth}×${file.canvasHeight} canvas`);
    }
  }
  return file;
}

function readFrame(c: Chunk): Frame {
  const p = c.payload;
  if (p.length < 16) throw new WebpRefusal('damaged', 'an ANMF chunk is cut short');
  const inner = readChunks(p, 16, p.length);
  const image = inner.find((k) => k.fourcc === 'VP8 ' || k.fourcc === 'VP8L');
  if (!image) throw new WebpRefusal('damaged', 'a frame without image data');
  const frame: Frame = {
    x: u24(p, 0) * 2,
    y: u24(p, 3) * 2,
    width: u24(p, 6) + 1,
    height: u24(p, 9) + 1,
    duration: u24(p, 12),
    blend: (p[15] & 0x02) === 0,
    dispose: (p[15] & 0x01) !== 0,
    alph: image.fourcc === 'VP8 ' ? inner.find((k) => k.fourcc === 'ALPH') : undefined,
    image,
  };
  const size = bitstreamSize(image);
  if (size.width !== frame.width || size.height !== frame.height) {
    throw new WebpRefusal('damaged', `a ${frame.width}×${frame.height} frame holding a ${size.width}×${size.height} image`);
  }
  return frame;
}

/** The size a VP8 or VP8L bitstream declares. */
export function bitstreamSize(c: Chunk): { width: number; height: number } {
  const p = c.payload;
  if (c.fourcc === 'VP8L') {
    if (p.length < 5 || p[0] !== 0x2f) throw new WebpRefusal('damaged', 'a VP8L chunk without its signature');
    const bits = u32(p, 1, true)!;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (p.length < 10 || p[3] !== 0x9d || p[4] !== 0x01 || p[5] !== 0x2a) throw new WebpRefusal('damaged', 'a VP8 chunk without its start code');
  return { width: u16(p, 6, true)! & 0x3fff, height: u16(p, 8, true)! & 0x3fff };
}
