// WebP files written: chunks with their padding, the still file a browser decodes one frame
// from, and the whole rewritten file in the order the container spec asks for.
import { concat } from '../../../../../lib/image/bytes';
import type { Chunk } from './riff';

const ALPHA = 0x10;
const ANIMATION = 0x02;
const ICC = 0x20;
const EXIF = 0x08;
const XMP = 0x04;

/** A chunk read from a file, written again with its padding (a file's last chunk may lack it). */
export function rewrap(c: Chunk): Uint8Array {
  return chunk(c.fourcc, c.payload);
}

export function chunk(fourcc: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length + (payload.length & 1));
  for (let i = 0; i < 4; i++) out[i] = fourcc.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

function riff(chunks: readonly Uint8Array[]): Uint8Array {
  const body = concat(chunks);
  const out = new Uint8Array(12 + body.length);
  out.set([0x52, 0x49, 0x46, 0x46], 0);
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set([0x57, 0x45, 0x42, 0x50], 8);
  out.set(body, 12);
  return out;
}

function vp8x(flags: number, width: number, height: number): Uint8Array {
  const p = new Uint8Array(10);
  p[0] = flags;
  put24(p, 4, width - 1);
  put24(p, 7, height - 1);
  return chunk('VP8X', p);
}

function put24(p: Uint8Array, at: number, v: number): void {
  p[at] = v & 0xff;
  p[at + 1] = (v >> 8) & 0xff;
  p[at + 2] = (v >> 16) & 0xff;
}

/** One frame's bitstream (with its ALPH for VP8) as a still file a browser will decode. */
export function stillFile(image: Chunk, width: number, height: number, alph?: Chunk): Uint8Array {
  if (!alph) return riff([rewrap(image)]);
  return riff([vp8x(ALPHA, width, height), rewrap(alph), rewrap(image)]);
}

export interface OutputFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  duration: number;
  blend: boolean;
  dispose: boolean;
  /** ALPH and VP8, or VP8L, as whole chunks. */
  data: Uint8Array[];
}

export interface OutputFile {
  width: number;
  height: number;
  alpha: boolean;
  iccp?: Chunk;
  exif?: Chunk;
  xmp?: Chunk;
  /** Present for an animation: ANIM's payload, kept as it was. */
  anim?: Uint8Array;
  frames: OutputFrame[];
}

export function writeWebp(f: OutputFile): Uint8Array {
  const extended = f.anim || f.iccp || f.exif || f.xmp || f.frames[0].data.length > 1;
  if (!extended) return riff(f.frames[0].data);
  const flags = (f.alpha ? ALPHA : 0) | (f.anim ? ANIMATION : 0) | (f.iccp ? ICC : 0) | (f.exif ? EXIF : 0) | (f.xmp ? XMP : 0);
  const chunks = [vp8x(flags, f.width, f.height)];
  if (f.iccp) chunks.push(rewrap(f.iccp));
  if (f.anim) {
    chunks.push(chunk('ANIM', f.anim));
    for (const fr of f.frames) chunks.push(anmf(fr));
  } else {
    chunks.push(...f.frames[0].data);
  }
  if (f.exif) chunks.push(rewrap(f.exif));
  if (f.xmp) chunks.push(rewrap(f.xmp));
  return riff(chunks);
}

function anmf(fr: OutputFrame): Uint8Array {
  const head = new Uint8Array(16);
  // Offsets are stored halved: the caller has made them even.
  put24(head, 0, fr.x / 2);
  put24(head, 3, fr.y / 2);
  put24(head, 6, fr.width - 1);
  put24(head, 9, fr.height - 1);
  put24(head, 12, Math.min(fr.duration, 0xffffff));
  head[15] = (fr.blend ? 0 : 0x02) | (fr.dispose ? 0x01 : 0);
  return chunk('ANMF', concat([head, ...fr.data]));
}
