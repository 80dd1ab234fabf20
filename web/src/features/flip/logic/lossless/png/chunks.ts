// A PNG's chunks, read with every length and CRC checked, and written with fresh CRCs. Reading
// makes views into the input, never copies, so a large file is held once.
import { crc32 } from '../../pngStrips';

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Why a PNG is not rewritten: the caller re-encodes it instead, or says why not. */
export type PngRefusal = 'damaged' | 'unsupported' | 'tooLarge' | 'crop' | 'animationCrop';

export class PngError extends Error {
  constructor(
    readonly reason: PngRefusal,
    detail: string,
  ) {
    super(detail);
  }
}

export const damaged = (detail: string) => new PngError('damaged', detail);

export interface Chunk {
  type: string;
  /** The chunk's data, a view into the file. */
  data: Uint8Array;
}

// The spec's own limit on a chunk's length (2^31 - 1).
const MAX_LENGTH = 0x7fffffff;

/** Every chunk up to and including IEND; anything after IEND is ignored, as decoders do. */
export function readChunks(bytes: Uint8Array): Chunk[] {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw damaged('not a PNG signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Chunk[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > bytes.length) throw damaged(`the file ends inside a chunk header at byte ${at} (no IEND)`);
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    if (!/^[A-Za-z]{4}$/.test(type)) throw damaged(`a chunk type of non-letters at byte ${at}`);
    if (length > MAX_LENGTH || at + 12 + length > bytes.length) throw damaged(`${type} at byte ${at} claims ${length} bytes; the file ends first`);
    const crc = view.getUint32(at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== crc) throw damaged(`${type} at byte ${at}: bad CRC`);
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
    if (type === 'IEND') return chunks;
  }
}

/** A chunk to write; an fdAT or fcTL has its sequence number before its data. */
export interface OutChunk {
  type: string;
  data: Uint8Array;
  sequence?: number;
}

/** The file: the signature and each chunk with its length and CRC, written once into one buffer. */
export function writePng(chunks: readonly OutChunk[]): Uint8Array {
  const length = (c: OutChunk) => (c.sequence === undefined ? 0 : 4) + c.data.length;
  const out = new Uint8Array(chunks.reduce((n, c) => n + 12 + length(c), SIGNATURE.length));
  out.set(SIGNATURE);
  let at = SIGNATURE.length;
  for (const c of chunks) {
    const n = length(c);
    put32(out, at, n);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = c.type.charCodeAt(i);
    if (c.sequence !== undefined) put32(out, at + 8, c.sequence);
    out.set(c.data, at + 8 + n - c.data.length);
    put32(out, at + 8 + n, crc32(out.subarray(at + 4, at + 8 + n)));
    at += 12 + n;
  }
  return out;
}

export function u32(data: Uint8Array, at: number): number {
  return ((data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]) >>> 0;
}

export function u16(data: Uint8Array, at: number): number {
  return (data[at] << 8) | data[at + 1];
}

export function put32(data: Uint8Array, at: number, v: number): void {
  data[at] = v >>> 24;
  data[at + 1] = (v >>> 16) & 0xff;
  data[at + 2] = (v >>> 8) & 0xff;
  data[at + 3] = v & 0xff;
}
