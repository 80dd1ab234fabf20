// Test GIFs written here, block by block, with an LZW encoder of their own (not the one under
// test), and read back with omggif, an independent decoder, as what a viewer shows of each frame.
import { GifReader } from 'omggif';
import { expect } from 'vitest';
import { flipGifLossless } from '../../../../../../src/features/flip/logic/lossless/gif';
import { outputSize, transformKey, transformPixels, type Pixels, type Transform } from '../../../../../../src/lib/image/transform';

export interface TestFrame {
  left?: number;
  top?: number;
  width: number;
  height: number;
  indices: Uint8Array;
  localTable?: Uint8Array;
  interlaced?: boolean;
  delay?: number;
  disposal?: number;
  transparent?: number;
  userInput?: boolean;
  /** A graphic control extension even without delay, disposal or transparency. */
  control?: boolean;
}

export interface TestGif {
  version?: 'GIF87a' | 'GIF89a';
  width: number;
  height: number;
  globalTable?: Uint8Array;
  background?: number;
  aspect?: number;
  minCodeSize: number;
  loop?: number;
  comment?: string;
  /** A plain-text extension (with a graphic control of its own) before the first frame. */
  plainText?: boolean;
  frames: TestFrame[];
  /** When the code table is full: a clear code (as most encoders), or go on without one. */
  full?: 'clear' | 'defer';
}

/** `count` distinct colours (so that a colour tells its index), as a colour table. */
export function palette(count: number, seed: number): Uint8Array {
  const table = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) {
    table[i * 3] = (i * 37 + seed * 11) & 0xff;
    table[i * 3 + 1] = i;
    table[i * 3 + 2] = (i * 101 + seed * 53) & 0xff;
  }
  return table;
}

/** Indices below `colours`: runs, stripes and noise, so that strings of every length occur. */
export function picture(width: number, height: number, colours: number, seed: number): Uint8Array {
  const out = new Uint8Array(width * height);
  let state = seed * 2654435761 + 1;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 16;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const kind = (x >> 3) % 3;
      out[i] = (kind === 0 ? (x + y + seed) >> 2 : kind === 1 ? y * 3 + seed : random()) % colours;
    }
  }
  return out;
}

function lzw(indices: Uint8Array, minCodeSize: number, full: 'clear' | 'defer'): Uint8Array {
  const clear = 1 << minCodeSize;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  let size = minCodeSize + 1;
  let table = new Map<string, number>();
  let next = clear + 2;
  const write = (code: number) => {
    acc += code * 2 ** bits;
    bits += size;
    while (bits >= 8) {
      bytes.push(acc % 256);
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  };
  write(clear);
  let current = String.fromCharCode(indices[0]);
  const codeOf = (s: string) => (s.length === 1 ? s.charCodeAt(0) : table.get(s)!);
  for (let i = 1; i < indices.length; i++) {
    const longer = current + String.fromCharCode(indices[i]);
    if (table.has(longer)) {
      current = longer;
      continue;
    }
    write(codeOf(current));
    if (next < 4096) {
      if (next === 1 << size) size++;
      table.set(longer, next++);
    } else if (full === 'clear') {
      write(clear);
      table = new Map();
      next = clear + 2;
      size = minCodeSize + 1;
    }
    current = String.fromCharCode(indices[i]);
  }
  write(codeOf(current));
  write(clear + 1);
  if (bits > 0) bytes.push(acc);
  return subBlocks(bytes);
}

function subBlocks(data: number[]): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const block = data.slice(i, i + 255);
    out.push(block.length, ...block);
  }
  out.push(0);
  return Uint8Array.from(out);
}

const le = (v: number) => [v & 0xff, v >> 8];
const tableFlags = (table: Uint8Array | undefined) => (table ? 0x80 | (Math.log2(table.length / 3) - 1) : 0);

/** Interlaced order: rows 0, 8, 16…, then 4, 12…, then 2, 6…, then the odd ones. */
function interlace(indices: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(indices.length);
  let row = 0;
  for (const [from, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ]) {
    for (let y = from; y < height; y += step) out.set(indices.subarray(y * width, (y + 1) * width), row++ * width);
  }
  return out;
}

export function makeGif(g: TestGif): Uint8Array {
  const out: number[] = [...(g.version ?? 'GIF89a')].map((c) => c.charCodeAt(0));
  out.push(...le(g.width), ...le(g.height), tableFlags(g.globalTable) | 0x70, g.background ?? 0, g.aspect ?? 0);
  if (g.globalTable) out.push(...g.globalTable);
  if (g.loop !== undefined) out.push(0x21, 0xff, 11, ...[...'NETSCAPE2.0'].map((c) => c.charCodeAt(0)), 3, 1, ...le(g.loop), 0);
  if (g.comment !== undefined) out.push(0x21, 0xfe, g.comment.length, ...[...g.comment].map((c) => c.charCodeAt(0)), 0);
  if (g.plainText) {
    out.push(0x21, 0xf9, 4, 0, 50, 0, 0, 0);
    out.push(0x21, 0x01, 12, 0, 0, 0, 0, 8, 0, 8, 0, 8, 8, 1, 0, 2, 0x68, 0x69, 0);
  }
  for (const f of g.frames) {
    const disposal = f.disposal ?? 0;
    if (f.control || f.delay !== undefined || disposal || f.transparent !== undefined || f.userInput) {
      const packed = (disposal << 2) | (f.userInput ? 2 : 0) | (f.transparent !== undefined ? 1 : 0);
      out.push(0x21, 0xf9, 4, packed, ...le(f.delay ?? 0), f.transparent ?? 0, 0);
    }
    out.push(0x2c, ...le(f.left ?? 0), ...le(f.top ?? 0), ...le(f.width), ...le(f.height));
    out.push(tableFlags(f.localTable) | (f.interlaced ? 0x40 : 0));
    if (f.localTable) out.push(...f.localTable);
    const stored = f.interlaced ? interlace(f.indices, f.width, f.height) : f.indices;
    out.push(g.minCodeSize, ...lzw(stored, g.minCodeSize, g.full ?? 'clear'));
  }
  out.push(0x3b);
  return Uint8Array.from(out);
}

export interface ShownFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  delay: number;
  disposal: number;
  transparent: number | null;
  local: boolean;
  interlaced: boolean;
  minCodeSize: number;
  palette: Uint8Array;
  /** The frame alone on the whole screen: RGBA, 0 where it draws nothing (outside or transparent). */
  layer: Pixels;
}

export interface Shown {
  width: number;
  height: number;
  loop: number | null;
  frames: ShownFrame[];
}

/** What omggif reads in a GIF. */
export function show(bytes: Uint8Array): Shown {
  const reader = new GifReader(bytes);
  const frames: ShownFrame[] = [];
  for (let i = 0; i < reader.numFrames(); i++) {
    const info = reader.frameInfo(i);
    const data = new Uint8ClampedArray(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(i, data);
    const at = info.palette_offset ?? 0;
    frames.push({
      x: info.x,
      y: info.y,
      width: info.width,
      height: info.height,
      delay: info.delay,
      disposal: info.disposal,
      transparent: info.transparent_index,
      local: info.has_local_palette,
      interlaced: info.interlaced,
      minCodeSize: bytes[info.data_offset],
      palette: bytes.slice(at, at + (info.palette_size ?? 0) * 3),
      layer: { width: reader.width, height: reader.height, data },
    });
  }
  return { width: reader.width, height: reader.height, loop: reader.loopCount(), frames };
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A rectangle of RGBA pixels. */
export function cut(p: Pixels, box: Box): Pixels {
  const data = new Uint8ClampedArray(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * p.width + box.x) * 4;
    data.set(p.data.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return { width: box.width, height: box.height, data };
}

/** The screen layer of a frame as the lossless flip must show it: cut, then transformed. */
export function expectedLayer(p: Pixels, box: Box, t: Transform): Pixels {
  return transformPixels(cut(p, box), t);
}

/** Where a frame's rectangle must land: its part inside the box, transformed with the box. */
export function expectedRect(f: Box, screen: { width: number; height: number }, box: Box, t: Transform): Box | undefined {
  const mask = new Uint8ClampedArray(screen.width * screen.height * 4);
  for (let y = f.y; y < Math.min(f.y + f.height, screen.height); y++) {
    for (let x = f.x; x < Math.min(f.x + f.width, screen.width); x++) mask[(y * screen.width + x) * 4] = 1;
  }
  const out = expectedLayer({ ...screen, data: mask }, box, t);
  let [left, top, right, bottom] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      if (!out.data[(y * out.width + x) * 4]) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return right < 0 ? undefined : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** The lossless flip of `input`, which must succeed. */
export function flipped(input: Uint8Array, t: Transform, crop?: Box) {
  const r = flipGifLossless(input, t, crop, { maxPixels: 1e9 });
  if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
  return r;
}

/**
 * Checks the flip of `input` frame by frame against what omggif shows of the input, cut and
 * transformed: each frame's pixels where the frame puts them, its rectangle, colour table
 * (byte for byte), delay, disposal and transparency, the frame count and the loop count.
 */
export function expectLossless(input: Uint8Array, t: Transform, crop?: Box): Uint8Array {
  const r = flipped(input, t, crop);
  const before = show(input);
  const after = show(r.bytes);
  const box = crop ?? { x: 0, y: 0, width: before.width, height: before.height };
  const name = `${transformKey(t)}${crop ? ` cut to ${crop.width}×${crop.height} at (${crop.x}, ${crop.y})` : ''}`;
  expect({ width: after.width, height: after.height }, name).toEqual(outputSize(t, box.width, box.height));
  expect({ width: r.width, height: r.height, frames: r.frames }).toEqual({ width: after.width, height: after.height, frames: before.frames.length });
  expect(after.loop, name).toBe(before.loop);
  expect(after.frames.length, name).toBe(before.frames.length);
  before.frames.forEach((b, i) => {
    const a = after.frames[i];
    const frame = `${name}, frame ${i + 1}`;
    expect(Buffer.from(a.palette).equals(Buffer.from(b.palette)), `${frame}: colour table`).toBe(true);
    expect({ local: a.local, delay: a.delay, interlaced: a.interlaced, minCodeSize: a.minCodeSize }, frame).toEqual({ local: b.local, delay: b.delay, interlaced: false, minCodeSize: b.minCodeSize });
    const rect = expectedRect(b, before, box, t);
    if (rect) {
      expect({ x: a.x, y: a.y, width: a.width, height: a.height }, frame).toEqual(rect);
      expect({ disposal: a.disposal, transparent: a.transparent }, frame).toEqual({ disposal: b.disposal, transparent: b.transparent });
    } else {
      // Wholly outside the crop: one transparent pixel, not disposed of.
      expect({ x: a.x, y: a.y, width: a.width, height: a.height, disposal: a.disposal }, frame).toEqual({ x: 0, y: 0, width: 1, height: 1, disposal: 1 });
      expect(a.transparent, frame).not.toBeNull();
    }
    const want = expectedLayer(b.layer, box, t);
    expect(Buffer.from(a.layer.data.buffer).equals(Buffer.from(want.data.buffer)), `${frame}: pixels`).toBe(true);
  });
  return r.bytes;
}
