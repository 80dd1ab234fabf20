// Huffman tables for the lossless JPEG transform: the decoder's lookup tables, the encoder's
// code tables, and optimal tables built from symbol counts exactly as libjpeg builds them
// (jpeg_gen_optimal_table, ITU T.81 annex K.2), so that our output can match `jpegtran
// -optimize` byte for byte.

/** A table as a DHT segment carries it: code counts per length 1–16, then the symbols. */
export interface HuffmanSpec {
  /** counts[l - 1] codes of length l. */
  readonly counts: Uint8Array;
  readonly symbols: Uint8Array;
}

// Codes up to this many bits are found with one lookup; longer ones (rare) bit by bit.
export const LOOKAHEAD = 10;

export interface DecodeTable {
  /** By the next LOOKAHEAD bits: (length << 8) | symbol, or 0 when the code is longer. */
  readonly fast: Uint16Array;
  /**
   * For AC tables, by the next LOOKAHEAD bits: a whole coefficient when its code and value fit
   * them (most do), as value << 16 | run << 12 | size << 8 | bits used; else 0. Shifted right
   * by 8 it is value << 8 | symbol, the form the decoder keeps a transposed block in.
   */
  readonly fastAc: Int32Array;
  /** By length 1–16: the largest code of that length, or -1. */
  readonly maxCode: Int32Array;
  /** By length: the index in `symbols` of the code 0 of that length (may be negative). */
  readonly offset: Int32Array;
  readonly symbols: Uint8Array;
}

/** The canonical codes of a spec, in symbol order (T.81 annex C), or throws if it is not a valid code. */
function canonicalCodes(spec: HuffmanSpec): { codes: Uint16Array; lengths: Uint8Array } {
  const codes = new Uint16Array(spec.symbols.length);
  const lengths = new Uint8Array(spec.symbols.length);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < spec.counts[length - 1]; i++, k++) {
      codes[k] = code++;
      lengths[k] = length;
    }
    if (code > 1 << length) throw new Error('bad Huffman table: more codes than fit their lengths');
    code <<= 1;
  }
  return { codes, lengths };
}

export function decodeTable(spec: HuffmanSpec): DecodeTable {
  const { codes, lengths } = canonicalCodes(spec);
  const fast = new Uint16Array(1 << LOOKAHEAD);
  const maxCode = new Int32Array(17).fill(-1);
  const offset = new Int32Array(17);
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const count = spec.counts[length - 1];
    if (count > 0) {
      offset[length] = k - codes[k];
      maxCode[length] = codes[k + count - 1]!;
    }
    k += count;
  }
  for (let i = 0; i < codes.length; i++) {
    const length = lengths[i];
    if (length > LOOKAHEAD) continue;
    const shift = LOOKAHEAD - length;
    const first = codes[i] << shift;
    for (let j = 0; j < 1 << shift; j++) fast[first + j] = (length << 8) | spec.symbols[i];
  }
  const fastAc = new Int32Array(1 << LOOKAHEAD);
  for (let bits = 0; bits < 1 << LOOKAHEAD; bits++) {
    const e = fast[bits];
    const length = e >> 8;
    const size = e & 15;
    if (e === 0 || size === 0 || length + size > LOOKAHEAD) continue;
    const v = (bits >> (LOOKAHEAD - length - size)) & ((1 << size) - 1);
    const value = v < 1 << (size - 1) ? v - (1 << size) + 1 : v;
    fastAc[bits] = (value << 16) | ((e & 0xff) << 8) | (length + size);
  }
  return { fast, fastAc, maxCode, offset, symbols: spec.symbols };
}

export interface EncodeTable {
  /** By symbol: its code, and its length in bits (0: the symbol has no code). */
  readonly code: Uint16Array;
  readonly length: Uint8Array;
}

export function encodeTable(spec: HuffmanSpec): EncodeTable {
  const { codes, lengths } = canonicalCodes(spec);
  const code = new Uint16Array(256);
  const length = new Uint8Array(256);
  spec.symbols.forEach((s, i) => {
    code[s] = codes[i]!;
    length[s] = lengths[i]!;
  });
  return { code, length };
}

/**
 * The optimal table for symbol counts (257 entries; the last is used as scratch), exactly as
 * libjpeg's jpeg_gen_optimal_table makes it: a reserved symbol 256 keeps any code from being
 * all ones, ties go to the larger symbol, and codes longer than 16 bits are folded back.
 */
export function optimalTable(counts: Float64Array | Uint32Array): HuffmanSpec {
  const freq = Float64Array.from(counts);
  freq[256] = 1;
  const codeSize = new Int32Array(257);
  const others = new Int32Array(257).fill(-1);
  // Only the symbols that occur take part; scanning them in increasing order with "<=" keeps
  // libjpeg's choice of the largest index among equal counts.
  let live: number[] = [];
  for (let i = 0; i <= 256; i++) if (freq[i] > 0) live.push(i);
  for (;;) {
    let c1 = -1;
    let v = Infinity;
    for (const i of live)
      if (freq[i] <= v) {
        v = freq[i];
        c1 = i;
      }
    let c2 = -1;
    v = Infinity;
    for (const i of live)
      if (i !== c1 && freq[i] <= v) {
        v = freq[i];
        c2 = i;
      }
    if (c2 < 0) break;
    freq[c1] += freq[c2];
    freq[c2] = 0;
    live = live.filter((i) => i !== c2);
    codeSize[c1]++;
    while (others[c1] >= 0) {
      c1 = others[c1]!;
      codeSize[c1]++;
    }
    others[c1] = c2;
    codeSize[c2]++;
    while (others[c2] >= 0) {
      c2 = others[c2]!;
      codeSize[c2]++;
    }
  }
  const bits = new Int32Array(33);
  for (let i = 0; i <= 256; i++) if (codeSize[i]) bits[codeSize[i]]++;
  // Fold codes longer than 16 bits back (T.81 figure K.3).
  for (let i = 32; i > 16; i--) {
    while (bits[i] > 0) {
      let j = i - 2;
      while (bits[j] === 0) j--;
      bits[i] -= 2;
      bits[i - 1]++;
      bits[j + 1] += 2;
      bits[j]--;
    }
  }
  // Drop the reserved symbol: it holds the longest code.
  let longest = 16;
  while (bits[longest] === 0) longest--;
  bits[longest]--;
  const symbols: number[] = [];
  for (let length = 1; length <= 32; length++) {
    for (let s = 0; s <= 255; s++) if (codeSize[s] === length) symbols.push(s);
  }
  return { counts: Uint8Array.from(bits.subarray(1, 17)), symbols: Uint8Array.from(symbols) };
}
