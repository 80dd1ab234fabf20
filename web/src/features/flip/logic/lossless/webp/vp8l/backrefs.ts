// LZ77 for VP8L: each pixel is a literal, a hit in the colour cache, or part of a copy of
// earlier pixels (at most 4096 long, from at most a window's distance back), found through a hash
// chain over pairs of pixels. Distances to the nearby pixels of the previous rows have short codes
// of their own (the spec's distance map).

export const LITERAL = 0;
export const COPY = 1;
export const CACHE = 2;

const MAX_LENGTH = 4096;
const WINDOW = (1 << 20) - 120;
const HASH_BITS = 18;
const MAX_CHAIN = 24;
const MIN_LENGTH = 3;

// (y, 8 - x) of distance codes 1..120, the spec's table: y rows up and x pixels to the left.
const CODE_TO_PLANE = [
  0x18, 0x07, 0x17, 0x19, 0x28, 0x06, 0x27, 0x29, 0x16, 0x1a, 0x26, 0x2a, 0x38, 0x05, 0x37, 0x39, 0x15, 0x1b, 0x36, 0x3a, 0x25, 0x2b, 0x48, 0x04,
  0x47, 0x49, 0x14, 0x1c, 0x35, 0x3b, 0x46, 0x4a, 0x24, 0x2c, 0x58, 0x45, 0x4b, 0x34, 0x3c, 0x03, 0x57, 0x59, 0x13, 0x1d, 0x56, 0x5a, 0x23, 0x2d,
  0x44, 0x4c, 0x55, 0x5b, 0x33, 0x3d, 0x68, 0x02, 0x67, 0x69, 0x12, 0x1e, 0x66, 0x6a, 0x22, 0x2e, 0x54, 0x5c, 0x43, 0x4d, 0x65, 0x6b, 0x32, 0x3e,
  0x78, 0x01, 0x77, 0x79, 0x53, 0x5d, 0x11, 0x1f, 0x64, 0x6c, 0x42, 0x4e, 0x76, 0x7a, 0x21, 0x2f, 0x75, 0x7b, 0x31, 0x3f, 0x63, 0x6d, 0x52, 0x5e,
  0x00, 0x74, 0x7c, 0x41, 0x4f, 0x10, 0x20, 0x62, 0x6e, 0x30, 0x73, 0x7d, 0x51, 0x5f, 0x40, 0x72, 0x7e, 0x61, 0x6f, 0x50, 0x71, 0x7f, 0x60, 0x70,
];

/** The pixels as tokens: kind[i], and for a literal its ARGB, a copy its length and distance code, a cache hit its index. */
export interface Tokens {
  count: number;
  kind: Uint8Array;
  a: Uint32Array;
  b: Uint32Array;
}

/** Distance → the smallest code the decoder maps back to it (distance + 120 when none is shorter). */
function distanceCodes(width: number): Map<number, number> {
  const codes = new Map<number, number>();
  CODE_TO_PLANE.forEach((plane, i) => {
    const distance = Math.max(1, (plane >> 4) * width + 8 - (plane & 15));
    if (!codes.has(distance)) codes.set(distance, i + 1);
  });
  return codes;
}

export function cacheIndex(argb: number, cacheBits: number): number {
  return Math.imul(argb, 0x1e35a7bd) >>> (32 - cacheBits);
}

export function tokenize(argb: Uint32Array, width: number, cacheBits: number): Tokens {
  const n = argb.length;
  const tokens: Tokens = { count: 0, kind: new Uint8Array(n), a: new Uint32Array(n), b: new Uint32Array(n) };
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const chain = new Int32Array(n);
  const cache = cacheBits > 0 ? new Uint32Array(1 << cacheBits) : undefined;
  const codes = distanceCodes(width);
  const hash = (i: number) => (Math.imul(argb[i], 0x9e3779b1) ^ Math.imul(argb[i + 1], 0x85ebca6b)) >>> (32 - HASH_BITS);
  const insert = (i: number) => {
    if (i + 1 >= n) return;
    const h = hash(i);
    chain[i] = head[h];
    head[h] = i;
  };
  const matchLength = (i: number, j: number, max: number) => {
    let l = 0;
    while (l < max && argb[i + l] === argb[j + l]) l++;
    return l;
  };

  for (let i = 0; i < n; ) {
    const max = Math.min(MAX_LENGTH, n - i);
    let bestLength = 0;
    let bestDistance = 0;
    if (max >= MIN_LENGTH) {
      // The pixel to the left and the one above are tried first: their codes are the shortest.
      for (const d of [1, width]) {
        if (d > i) continue;
        const l = matchLength(i, i - d, max);
        if (l > bestLength) [bestLength, bestDistance] = [l, d];
      }
      for (let j = head[hash(i)], tries = 0; j >= 0 && tries < MAX_CHAIN && i - j <= WINDOW && bestLength < max; j = chain[j], tries++) {
        if (argb[j + bestLength] !== argb[i + bestLength]) continue;
        const l = matchLength(i, j, max);
        if (l > bestLength) [bestLength, bestDistance] = [l, i - j];
      }
    }
    const t = tokens.count++;
    if (bestLength >= MIN_LENGTH) {
      tokens.kind[t] = COPY;
      tokens.a[t] = bestLength;
      tokens.b[t] = codes.get(bestDistance) ?? bestDistance + 120;
      for (let k = 0; k < bestLength; k++) {
        insert(i + k);
        if (cache) cache[cacheIndex(argb[i + k], cacheBits)] = argb[i + k];
      }
      i += bestLength;
      continue;
    }
    const px = argb[i];
    if (cache) {
      const index = cacheIndex(px, cacheBits);
      if (cache[index] === px) {
        tokens.kind[t] = CACHE;
        tokens.a[t] = index;
      } else {
        tokens.kind[t] = LITERAL;
        tokens.a[t] = px;
        cache[index] = px;
      }
    } else {
      tokens.kind[t] = LITERAL;
      tokens.a[t] = px;
    }
    insert(i);
    i++;
  }
  return tokens;
}

/** A length or distance code (≥ 1) as the spec's prefix symbol and extra bits. */
export function prefixOf(value: number): { symbol: number; extraBits: number; extra: number } {
  const d = value - 1;
  if (d < 4) return { symbol: d, extraBits: 0, extra: 0 };
  const high = 31 - Math.clz32(d);
  const second = (d >> (high - 1)) & 1;
  const extraBits = high - 1;
  return { symbol: 2 * high + second, extraBits, extra: d & ((1 << extraBits) - 1) };
}
