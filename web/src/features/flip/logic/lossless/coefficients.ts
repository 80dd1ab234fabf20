// A JPEG as its quantised DCT coefficients: what the lossless transform reads, rearranges and
// writes back, never turning them into pixels. A block keeps its DC and only its non-zero AC
// coefficients (a photo's blocks are mostly zeros): a third of the memory of 64 values per
// block, and nothing to skip over when writing.

/** Position in the zigzag scan → position in the 8×8 block, row by row. */
export const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35,
  42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/** By zigzag position: the anti-diagonal (row + column) it lies on. */
export const DIAGONAL = Uint8Array.from(ZIGZAG, (n) => (n >> 3) + (n & 7));

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
   * data as a baseline encoder writes them, in zigzag order as stored or, when the image was
   * read for a transposing transform, transposed (see Coefficients.transposedSymbols). Counted
   * while decoding, so that building optimal Huffman tables needs no pass of its own.
   */
  readonly acSymbols: Uint32Array;
}

/** Non-zero AC coefficients, block after block, each block's in zigzag order. */
export interface AcCoefficients {
  /** Zigzag position, 1–63. */
  readonly position: Uint8Array;
  readonly value: Int16Array;
}

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
  /** Whether the components' acSymbols count the blocks transposed. */
  readonly transposedSymbols: boolean;
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

/** One block's 64 coefficients in natural order (for tests and checks, not the fast path). */
export function blockCoefficients(c: Coefficients, comp: Component, block: number): Int16Array {
  const out = new Int16Array(64);
  out[0] = comp.dc[block]!;
  for (let j = comp.acStart[block]; j < comp.acStart[block] + comp.acCount[block]; j++) out[ZIGZAG[c.ac.position[j]]] = c.ac.value[j]!;
  return out;
}

/** The bit length of |v|: its JPEG magnitude category, the size nibble of its symbol. */
export function category(v: number): number {
  const sign = v >> 31;
  return 32 - Math.clz32((v ^ sign) - sign);
}

/** By zigzag position: the zigzag position of the transposed coefficient. */
export const TRANSPOSED = (() => {
  const zigzagOf = new Uint8Array(64);
  ZIGZAG.forEach((n, k) => (zigzagOf[n] = k));
  return Uint8Array.from(ZIGZAG, (n) => zigzagOf[(n & 7) * 8 + (n >> 3)]);
})();

/**
 * Adds (by = 1) or takes away (by = -1) one block's AC symbols to or from `counts`, as stored
 * or transposed. A transpose keeps each coefficient on its anti-diagonal, and the zigzag runs
 * along each anti-diagonal the other way: transposed order is stored order with each
 * diagonal's run reversed.
 */
export function countAcSymbols(ac: AcCoefficients, start: number, count: number, counts: Uint32Array, by: 1 | -1, transposed: boolean) {
  let previous = 0;
  const end = start + count;
  for (let j = start; j < end; ) {
    // Stored: one coefficient at a time. Transposed: a diagonal's run at a time, reversed.
    let next = j + 1;
    if (transposed) while (next < end && DIAGONAL[ac.position[next]] === DIAGONAL[ac.position[j]]) next++;
    for (let t = next - 1; t >= j; t--) {
      const k = transposed ? TRANSPOSED[ac.position[t]] : ac.position[t];
      const run = k - previous - 1;
      counts[0xf0] += by * (run >> 4);
      counts[((run & 15) << 4) | category(ac.value[t])] += by;
      previous = k;
    }
    j = next;
  }
  if (previous < 63) counts[0] += by;
}
