// PNG's five row filters, undone (reading) and chosen and applied (writing). The hot loops are
// kept in this one module with the small functions they call, so that a bundler or a test
// runner that reaches imports through their module never sits inside them.
import { damaged } from './chunks';

function paeth(a: number, b: number, c: number): number {
  const pa = Math.abs(b - c);
  const pb = Math.abs(a - c);
  const pc = Math.abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes the filters of `rows` rows (each its filter byte, then rb bytes) at `start`, in place. */
export function unfilter(b: Uint8Array, start: number, rows: number, rb: number, bpp: number): void {
  for (let y = 0; y < rows; y++) {
    const f = b[start + y * (rb + 1)];
    const cur = start + y * (rb + 1) + 1;
    const up = cur - rb - 1;
    const first = y === 0;
    switch (f) {
      case 0:
        break;
      case 1:
        for (let i = bpp; i < rb; i++) b[cur + i] += b[cur + i - bpp];
        break;
      case 2:
        if (!first) for (let i = 0; i < rb; i++) b[cur + i] += b[up + i];
        break;
      case 3:
        for (let i = 0; i < rb; i++) b[cur + i] += ((i >= bpp ? b[cur + i - bpp] : 0) + (first ? 0 : b[up + i])) >> 1;
        break;
      case 4:
        if (first) {
          // With no row above, Paeth picks the pixel to the left: the same as Sub.
          for (let i = bpp; i < rb; i++) b[cur + i] += b[cur + i - bpp];
        } else {
          for (let i = 0; i < bpp; i++) b[cur + i] += b[up + i];
          for (let i = bpp; i < rb; i++) b[cur + i] += paeth(b[cur + i - bpp], b[up + i], b[up + i - bpp]);
        }
        break;
      default:
        throw damaged(`filter type ${f} in row ${y}`);
    }
  }
}

/** A filter for every row (0–4), or 'adaptive': each row's own, by the least sum. */
export type Strategy = number | 'adaptive';

/**
 * Filters rows (each a filter byte, then rb raw bytes) in place, bottom up, so that the raw
 * row above each is still there. 'adaptive' is libpng's default heuristic: the filter whose
 * bytes, read as signed, sum to the least in absolute value.
 */
export function filterRows(b: Uint8Array, rb: number, bpp: number, s: Strategy): void {
  const out = new Uint8Array(rb + 1);
  const zeros = new Uint8Array(rb);
  for (let at = b.length - rb - 1; at >= 0; at -= rb + 1) {
    filterInto(b.subarray(at + 1, at + 1 + rb), at ? b.subarray(at - rb, at) : zeros, bpp, s, out);
    b.set(out, at);
  }
}

/** `row` filtered (`up` is the raw row above, zeros for the first) into out: its filter byte, then the bytes. */
export function filterInto(row: Uint8Array, up: Uint8Array, bpp: number, s: Strategy, out: Uint8Array): void {
  const f = s === 'adaptive' ? choose(row, up, bpp) : s;
  out[0] = f;
  if (f) filterRow(row, up, bpp, f, out.subarray(1));
  else out.set(row, 1);
}

function filterRow(row: Uint8Array, up: Uint8Array, bpp: number, f: number, out: Uint8Array): void {
  const n = row.length;
  for (let i = 0; i < n; i++) {
    const a = i >= bpp ? row[i - bpp] : 0;
    const b = up[i];
    const c = i >= bpp ? up[i - bpp] : 0;
    out[i] = row[i] - (f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c));
  }
}

const signed = (v: number) => {
  const u = v & 0xff;
  return u < 128 ? u : 256 - u;
};

/** The filter whose output, as signed bytes, sums to the least. */
function choose(row: Uint8Array, up: Uint8Array, bpp: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  const n = row.length;
  for (let i = 0; i < n; i++) {
    const a = i >= bpp ? row[i - bpp] : 0;
    const b = up[i];
    const c = i >= bpp ? up[i - bpp] : 0;
    const x = row[i];
    s0 += signed(x);
    s1 += signed(x - a);
    s2 += signed(x - b);
    s3 += signed(x - ((a + b) >> 1));
    s4 += signed(x - paeth(a, b, c));
  }
  const sums = [s0, s1, s2, s3, s4];
  return sums.indexOf(Math.min(...sums));
}
