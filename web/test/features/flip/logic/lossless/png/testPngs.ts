// Test PNGs made by the tests themselves, by an encoder written here apart from the module
// under test (Node's zlib, not fflate; every filter type, chosen at random; Adam7 when asked),
// and pngjs as the independent reference decoder: it reads every colour type and depth and,
// with skipRescale, gives 16-bit samples as they are (RGBA, palettes and tRNS applied).
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { mapPoint, outputSize, type Transform } from '../../../../../../src/lib/image/transform';

export const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function chunk(type: string, data: Uint8Array = new Uint8Array(0)): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export interface Chunk {
  type: string;
  data: Buffer;
}

/** The chunks of a PNG (no checks: the tests' own files and the module's output). */
export function chunks(png: Uint8Array): Chunk[] {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const out: Chunk[] = [];
  for (let at = 8; at + 12 <= b.length; ) {
    const length = b.readUInt32BE(at);
    out.push({ type: b.toString('latin1', at + 4, at + 8), data: b.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

export const channelsOf: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface Picture {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  /** Samples, channel by channel, row by row (palette indices for colour type 3). */
  samples: number[];
}

/** A seeded random generator (mulberry32), so that every run tests the same images. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A picture of smooth gradients with some noise (compressible, like a real one) or pure noise. */
export function picture(width: number, height: number, depth: number, colourType: number, seed: number, noise = true): Picture {
  const next = random(seed);
  const channels = channelsOf[colourType];
  const max = colourType === 3 ? Math.min(2 ** depth, 256) - 1 : 2 ** depth - 1;
  const samples: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        const smooth = ((x * (c + 1) + y * (3 - c)) / (width + height)) % 1;
        const v = noise ? next() : smooth * 0.9 + next() * 0.1;
        samples.push(Math.min(max, Math.floor(v * (max + 1))));
      }
    }
  }
  return { width, height, depth, colourType, samples };
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function packRow(p: Picture, xs: number[], y: number): Uint8Array {
  const channels = channelsOf[p.colourType];
  const bits = p.depth * channels;
  const out = new Uint8Array(Math.ceil((xs.length * bits) / 8));
  xs.forEach((x, i) => {
    for (let c = 0; c < channels; c++) {
      const v = p.samples[(y * p.width + x) * channels + c];
      if (p.depth === 16) {
        out[(i * channels + c) * 2] = v >> 8;
        out[(i * channels + c) * 2 + 1] = v & 0xff;
      } else if (p.depth === 8) {
        out[i * channels + c] = v;
      } else {
        const bit = i * bits;
        out[bit >> 3] |= v << (8 - p.depth - (bit & 7));
      }
    }
  });
  return out;
}

/** Rows filtered with a random filter each (the reference's own arithmetic), as in a zlib stream. */
function filterRows(rows: Uint8Array[], bpp: number, next: () => number): Buffer {
  const out: number[] = [];
  let prev: Uint8Array = new Uint8Array(rows[0]?.length ?? 0);
  for (const row of rows) {
    const f = Math.floor(next() * 5);
    out.push(f);
    for (let i = 0; i < row.length; i++) {
      const a = i >= bpp ? row[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      const p = a + b - c;
      const pred = [0, a, b, (a + b) >> 1, Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c][f];
      out.push((row[i] - pred) & 0xff);
    }
    prev = row;
  }
  return Buffer.from(out);
}

/** The zlib stream of a picture's pixels (Adam7's passes when interlaced). */
export function imageData(p: Picture, interlaced: boolean, seed = 1): Buffer {
  const next = random(seed);
  const bpp = Math.max(1, (p.depth * channelsOf[p.colourType]) >> 3);
  const all = Array.from({ length: p.width }, (_, x) => x);
  const parts: Buffer[] = [];
  if (!interlaced) {
    parts.push(filterRows(Array.from({ length: p.height }, (_, y) => packRow(p, all, y)), bpp, next));
  } else {
    for (const [x0, y0, dx, dy] of ADAM7) {
      const xs = all.filter((x) => x >= x0 && (x - x0) % dx === 0);
      const ys = Array.from({ length: p.height }, (_, y) => y).filter((y) => y >= y0 && (y - y0) % dy === 0);
      if (xs.length && ys.length) parts.push(filterRows(ys.map((y) => packRow(p, xs, y)), bpp, next));
    }
  }
  return deflateSync(Buffer.concat(parts), { level: 9 });
}

export function ihdr(width: number, height: number, depth: number, colourType: number, interlaced: boolean): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d.set([depth, colourType, 0, 0, interlaced ? 1 : 0], 8);
  return chunk('IHDR', d);
}

export interface PngOptions {
  interlaced?: boolean;
  /** Chunks before PLTE, between PLTE and IDAT, and after IDAT. */
  before?: Buffer[];
  middle?: Buffer[];
  after?: Buffer[];
  palette?: Uint8Array;
  transparency?: Uint8Array;
  /** Split the image data over IDAT chunks of at most this many bytes. */
  idatSize?: number;
}

export function encodePng(p: Picture, o: PngOptions = {}): Buffer {
  const data = imageData(p, o.interlaced ?? false);
  const size = o.idatSize ?? data.length;
  const idats: Buffer[] = [];
  for (let at = 0; at < data.length; at += size) idats.push(chunk('IDAT', data.subarray(at, at + size)));
  return Buffer.concat([
    SIGNATURE,
    ihdr(p.width, p.height, p.depth, p.colourType, o.interlaced ?? false),
    ...(o.before ?? []),
    ...(o.palette ? [chunk('PLTE', o.palette)] : []),
    ...(o.transparency ? [chunk('tRNS', o.transparency)] : []),
    ...(o.middle ?? []),
    ...idats,
    ...(o.after ?? []),
    chunk('IEND'),
  ]);
}

/** A palette of n random colours, as PLTE's data. */
export function palette(n: number, seed: number): Uint8Array {
  const next = random(seed);
  return Uint8Array.from({ length: n * 3 }, () => Math.floor(next() * 256));
}

export interface Decoded {
  width: number;
  height: number;
  /** RGBA, 8 or 16 bits a sample as the file has them (1, 2 and 4 bits not rescaled). */
  data: ArrayLike<number>;
}

export function decode(png: Uint8Array): Decoded {
  const image = PNG.sync.read(Buffer.from(png), { skipRescale: true });
  return { width: image.width, height: image.height, data: image.data };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** RGBA pixels cropped (before) and transformed, pixel by pixel by the shared mapping. */
export function rearranged(d: Decoded, t: Transform, crop: Rect = { x: 0, y: 0, width: d.width, height: d.height }): Decoded {
  const size = outputSize(t, crop.width, crop.height);
  const data = new Array<number>(size.width * size.height * 4);
  for (let y = 0; y < crop.height; y++) {
    for (let x = 0; x < crop.width; x++) {
      const to = mapPoint(t, crop.width, crop.height, x, y);
      const from = ((crop.y + y) * d.width + crop.x + x) * 4;
      for (let c = 0; c < 4; c++) data[(to.y * size.width + to.x) * 4 + c] = d.data[from + c];
    }
  }
  return { ...size, data };
}

export function same(a: Decoded, b: Decoded): boolean {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}
