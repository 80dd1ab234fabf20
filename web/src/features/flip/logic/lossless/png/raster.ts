// The stored pixels of one image (the still image or an APNG frame): its zlib stream inflated
// into a buffer of exactly the size the header implies, unfiltered in place, and (interlaced)
// gathered from Adam7's passes into plain rows. Samples stay packed as stored, in their depth.
import { Unzlib } from 'fflate';
import { damaged } from './chunks';
import { unfilter } from './filters';
import { ADAM7, filterDistance, filteredSize, passSize, rowBytes, type Header } from './header';

/** Unfiltered rows of packed samples: row y starts at offset + y × stride. */
export interface Raster {
  data: Uint8Array;
  offset: number;
  stride: number;
}

/** The pixels of a width × height image from its zlib stream, split over `parts`. */
export function decodeRaster(h: Header, parts: readonly Uint8Array[], width: number, height: number): Raster {
  const buf = inflate(parts, filteredSize(h, width, height));
  const rb = rowBytes(h, width);
  if (!h.interlaced) {
    unfilter(buf, 0, height, rb, filterDistance(h));
    return { data: buf, offset: 1, stride: rb + 1 };
  }
  const out = new Uint8Array(height * rb);
  let at = 0;
  for (const p of ADAM7) {
    const s = passSize(p, width, height);
    if (!s.width) continue;
    const prb = rowBytes(h, s.width);
    unfilter(buf, at, s.height, prb, filterDistance(h));
    scatter(h, buf, at, s, prb, out, rb, p);
    at += s.height * (prb + 1);
  }
  return { data: out, offset: 0, stride: rb };
}

function inflate(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 0) throw damaged('no image data');
  const buf = new Uint8Array(size);
  let filled = 0;
  // Data past the image's size is ignored, as libpng does (it warns).
  const z = new Unzlib((chunk) => {
    const n = Math.min(chunk.length, size - filled);
    buf.set(chunk.subarray(0, n), filled);
    filled += n;
  });
  try {
    parts.forEach((p, i) => z.push(p, i === parts.length - 1));
  } catch (err) {
    throw damaged(`image data: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (filled < size) throw damaged(`image data ends after ${filled} of ${size} bytes`);
  return buf;
}

/** Copies a pass's pixels (rows of prb bytes after their filter bytes, at `at`) to their places in `out`. */
function scatter(h: Header, b: Uint8Array, at: number, s: { width: number; height: number }, prb: number, out: Uint8Array, rb: number, p: (typeof ADAM7)[number]): void {
  const bits = h.bitsPerPixel;
  const bytes = bits >> 3;
  for (let y = 0; y < s.height; y++) {
    const src = at + y * (prb + 1) + 1;
    const dst = (p.y + y * p.dy) * rb;
    for (let x = 0; x < s.width; x++) {
      const ox = p.x + x * p.dx;
      if (bytes) {
        for (let k = 0; k < bytes; k++) out[dst + ox * bytes + k] = b[src + x * bytes + k];
      } else {
        const v = (b[src + ((x * bits) >> 3)] >> (8 - bits - ((x * bits) & 7))) & ((1 << bits) - 1);
        out[dst + ((ox * bits) >> 3)] |= v << (8 - bits - ((ox * bits) & 7));
      }
    }
  }
}
