// A JPEG as its quantised DCT coefficients: what the lossless transform reads, rearranges and
// writes back, never turning them into pixels. A block keeps its DC and only its non-zero AC
// coefficients (a photo's blocks are mostly zeros), each as one 32-bit word: less than half the
// memory of 64 values per block, and nothing to skip over when writing.

/** Position in the zigzag scan → position in the 8×8 block, row by row. */
export const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35,
  42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/** Position in the zigzag scan of a transposed block → position in the block before the transpose. */
export const ZIGZAG_TRANSPOSED = Uint8Array.from(ZIGZAG, (n) => ((n & 7) << 3) | (n >> 3));

export interface Component {
  /** The component's id in the frame header (1, 2, 3 in most files). */
  readonly id: number;
  /** Sampling factors, 1–4. */
  readonly h: number;
  readonly v: number;
  /** The quantisation table it uses, 0–3. */
  readonly tq: number;
  /** Blocks that hold image data, across and down. */
  readonly blocksWide: number;
  readonly blocksHigh: number;
  /** Blocks per row in the arrays below: at least blocksWide (a decoded frame pads to whole MCUs). */
  readonly stride: number;
  /** By block: its DC coefficient. */
  readonly dc: Int16Array;
  /** By block: where its non-zero AC coefficients start in the image's `ac`, and how many. */
  readonly acStart: Uint32Array;
  readonly acCount: Uint8Array;
  /**
   * How often each AC symbol (run << 4 | size, ZRL 0xF0, EOB 0) occurs in the blocks holding
   * data as a baseline encoder writes them in the order stored (see Coefficients.transposed).
   * Counted while decoding, so that building optimal Huffman tables needs no pass of its own.
   */
  readonly acSymbols: Uint32Array;
}

/**
 * Non-zero AC coefficients, block after block, each block's in zigzag order (see
 * Coefficients.transposed), each as value << 8 | zigzag position (1–63): one load brings both,
 * and the blocks a quarter turn writes one after the other, far apart in memory, cost one cache
 * miss each instead of two.
 */
export type AcCoefficients = Int32Array;

/** An AC coefficient's zigzag position and value (see AcCoefficients). */
export const acPosition = (word: number) => word & 0xff;
export const acValue = (word: number) => word >> 8;

export interface Jfif {
  readonly major: number;
  readonly minor: number;
  readonly unit: number;
  readonly xDensity: number;
  readonly yDensity: number;
}

export interface Coefficients {
  readonly width: number;
  readonly height: number;
  readonly components: readonly Component[];
  readonly ac: AcCoefficients;
  /** By table number: 64 values in natural order, or undefined when the file defines none. */
  readonly quant: readonly (Uint16Array | undefined)[];
  /** The JFIF header's fields when the file has one. */
  readonly jfif?: Jfif;
  /**
   * Whether the blocks holding data keep their AC coefficients transposed: in the zigzag order
   * of the transposed block, with its positions. A quarter turn then writes each block's
   * coefficients in the order stored, as a flip does.
   */
  readonly transposed: boolean;
}

/** The largest sampling factors: the MCU (and the transform's unit) is 8·maxH × 8·maxV pixels. */
export function maxSampling(components: readonly { h: number; v: number }[]): { h: number; v: number } {
  return { h: Math.max(...components.map((c) => c.h)), v: Math.max(...components.map((c) => c.v)) };
}

/** The blocks across and down holding a component's data in an image of width × height. */
export function componentBlocks(width: number, height: number, c: { h: number; v: number }, max: { h: number; v: number }) {
  return {
    blocksWide: Math.ceil(Math.ceil((width * c.h) / max.h) / 8),
    blocksHigh: Math.ceil(Math.ceil((height * c.v) / max.v) / 8),
  };
}

/** One block's 64 coefficients in natural order, untransposed (for tests and checks, not the fast path). */
export function blockCoefficients(c: Coefficients, comp: Component, block: number): Int16Array {
  const out = new Int16Array(64);
  const natural = c.transposed ? ZIGZAG_TRANSPOSED : ZIGZAG;
  out[0] = comp.dc[block]!;
  for (let j = comp.acStart[block]; j < comp.acStart[block] + comp.acCount[block]; j++) out[natural[acPosition(c.ac[j])]] = acValue(c.ac[j]);
  return out;
}

/** The bit length of |v|: its JPEG magnitude category, the size nibble of its symbol. */
export function category(v: number): number {
  const sign = v >> 31;
  return 32 - Math.clz32((v ^ sign) - sign);
}

/**
 * By zigzag position: the zigzag position of the transposed coefficient. Positions 64–79, where
 * a damaged block's run can take the decoder, map to 0, which no AC coefficient has: the
 * decoder checks once per block rather than once per coefficient.
 */
export const TRANSPOSED = (() => {
  const zigzagOf = new Uint8Array(64);
  ZIGZAG.forEach((n, k) => (zigzagOf[n] = k));
  const transposed = new Uint8Array(80);
  transposed.set(Uint8Array.from(ZIGZAG_TRANSPOSED, (n) => zigzagOf[n]));
  return transposed;
})();

/** Adds (by = 1) or takes away (by = -1) one block's AC symbols, as stored, to or from `counts`. */
export function countAcSymbols(ac: AcCoefficients, start: number, count: number, counts: Uint32Array, by: 1 | -1) {
  let previous = 0;
  for (let j = start; j < start + count; j++) {
    const k = acPosition(ac[j]);
    const run = k - previous - 1;
    counts[0xf0] += by * (run >> 4);
    counts[((run & 15) << 4) | category(acValue(ac[j]))] += by;
    previous = k;
  }
  if (previous < 63) counts[0] += by;
}

/**
 * Packs one block's AC coefficients, scattered over ac[start + k] by zigzag position k as
 * value << 8 | size, to the front of that range in zigzag order, and adds their symbols to
 * `counts`; returns where the block ends. `low` and `high` are a 64-bit mask of the positions
 * that hold one (0–31, 32–63). This is how the decoder puts a block in the order of the
 * transposed block: a transpose keeps each coefficient on its anti-diagonal and reverses the
 * zigzag's direction along it; finding those runs would take a branch per coefficient,
 * mispredicted at the end of each, where taking the mask's bits in order takes none. Packing in
 * place overwrites none still to be read: the i-th in order (from 1) has a position of at least
 * i, and goes to start + i - 1.
 */
export function packByMask(ac: AcCoefficients, start: number, low: number, high: number, counts: Uint32Array): number {
  let j = start;
  let previous = 0;
  let zrl = 0;
  // The two halves of the mask in turn, in two loops: one with a variable half is slower.
  for (let bits = low; bits !== 0; bits &= bits - 1) {
    const k = 31 - Math.clz32(bits & -bits); // the lowest bit set
    const x = ac[start + k];
    ac[j++] = (x & -256) | k;
    const run = k - previous - 1;
    zrl += run >> 4;
    counts[((run & 15) << 4) | (x & 15)]++;
    previous = k;
  }
  for (let bits = high; bits !== 0; bits &= bits - 1) {
    const k = 63 - Math.clz32(bits & -bits);
    const x = ac[start + k];
    ac[j++] = (x & -256) | k;
    const run = k - previous - 1;
    zrl += run >> 4;
    counts[((run & 15) << 4) | (x & 15)]++;
    previous = k;
  }
  counts[0xf0] += zrl;
  if (previous < 63) counts[0]++;
  return j;
}
