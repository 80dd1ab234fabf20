// An animated WebP played as a decoder plays it, written apart from the rewriter: each frame
// decoded by libwebp from its own chunks and composited as libwebp's demuxer and Chromium do
// onto a canvas that starts transparent. What every frame shows is what a flip must keep.
import type { Pixels } from '../../../../../../src/lib/image/transform';
import { decodeStill } from './libwebp';

export interface PlayedFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  duration: number;
  blend: boolean;
  dispose: boolean;
  lossy: boolean;
}

export interface Played {
  width: number;
  height: number;
  /** ANIM's payload: background colour and loop count. */
  anim: Uint8Array;
  frames: PlayedFrame[];
  /** The canvas as shown during each frame. */
  shown: Pixels[];
}

const le = (b: Uint8Array, at: number, n: number) => b.subarray(at, at + n).reduceRight((v, x) => v * 256 + x, 0);
const tag = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

function* chunks(b: Uint8Array, from: number, to: number): Generator<{ id: string; body: Uint8Array; whole: Uint8Array }> {
  for (let at = from; at + 8 <= to; at += 8 + le(b, at + 4, 4) + (le(b, at + 4, 4) % 2)) {
    const size = le(b, at + 4, 4);
    yield { id: tag(b, at), body: b.subarray(at + 8, at + 8 + size), whole: b.subarray(at, at + 8 + size) };
  }
}

function still(parts: Uint8Array[], width: number, height: number, alpha: boolean): Uint8Array {
  const head = alpha ? [Uint8Array.from([86, 80, 56, 88, 10, 0, 0, 0, 16, 0, 0, 0, ...le3(width - 1), ...le3(height - 1)])] : [];
  const body = [...head, ...parts.map((p) => (p.length % 2 ? Uint8Array.from([...p, 0]) : p))];
  const size = body.reduce((n, p) => n + p.length, 4);
  const out = new Uint8Array(8 + size);
  out.set([82, 73, 70, 70, size & 255, (size >> 8) & 255, (size >> 16) & 255, size >>> 24, 87, 69, 66, 80]);
  let at = 12;
  for (const p of body) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function le3(v: number): number[] {
  return [v & 255, (v >> 8) & 255, (v >> 16) & 255];
}

export async function play(file: Uint8Array): Promise<Played> {
  let width = 0;
  let height = 0;
  let anim = new Uint8Array();
  const frames: PlayedFrame[] = [];
  const shown: Pixels[] = [];
  let canvas = new Uint8ClampedArray();
  for (const c of chunks(file, 12, file.length)) {
    if (c.id === 'VP8X') {
      width = le(c.body, 4, 3) + 1;
      height = le(c.body, 7, 3) + 1;
      canvas = new Uint8ClampedArray(width * height * 4);
    } else if (c.id === 'ANIM') {
      anim = c.body.slice();
    } else if (c.id === 'ANMF') {
      const b = c.body;
      const f: PlayedFrame = { x: le(b, 0, 3) * 2, y: le(b, 3, 3) * 2, width: le(b, 6, 3) + 1, height: le(b, 9, 3) + 1, duration: le(b, 12, 3), blend: (b[15] & 2) === 0, dispose: (b[15] & 1) === 1, lossy: false };
      const inner = [...chunks(b, 16, b.length)];
      f.lossy = inner.some((k) => k.id === 'VP8 ');
      const parts = inner.filter((k) => ['ALPH', 'VP8 ', 'VP8L'].includes(k.id)).map((k) => k.whole);
      const px = await decodeStill(still(parts, f.width, f.height, inner.some((k) => k.id === 'ALPH')));
      for (let y = 0; y < f.height; y++) {
        for (let x = 0; x < f.width; x++) {
          const s = (y * f.width + x) * 4;
          const d = ((f.y + y) * width + f.x + x) * 4;
          const sa = px.data[s + 3];
          if (!f.blend || sa === 255) canvas.set(px.data.subarray(s, s + 4), d);
          else if (sa > 0) {
            // libwebp's and Chromium's blending in integers (BlendPixelNonPremult).
            const factor = Math.floor((canvas[d + 3] * (256 - sa)) / 256);
            const a = sa + factor;
            const scale = Math.floor(2 ** 24 / a);
            for (let k = 0; k < 3; k++) canvas[d + k] = Math.floor(((px.data[s + k] * sa + canvas[d + k] * factor) * scale) / 2 ** 24);
            canvas[d + 3] = a;
          }
        }
      }
      shown.push({ width, height, data: canvas.slice() });
      if (f.dispose) for (let y = f.y; y < f.y + f.height; y++) canvas.fill(0, (y * width + f.x) * 4, (y * width + f.x + f.width) * 4);
      frames.push(f);
    }
  }
  return { width, height, anim, frames, shown };
}
