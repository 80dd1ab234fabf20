// Canonical prefix codes as VP8L stores them: lengths limited to 15 bits (7 for the code of
// code lengths), written either as a "simple" code of one or two literals or as run-length
// coded lengths. A code with a single used symbol takes no bits at all, as libwebp reads it.
import type { BitWriter } from './bitWriter';

const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

export interface PrefixCode {
  /** Bits of each symbol's code (0 for unused symbols, and for the only symbol of a one-symbol code). */
  bits: Uint8Array;
  /** Each symbol's code, bit-reversed so that it can be written least significant bit first. */
  codes: Uint16Array;
}

/** Huffman code lengths for `counts`, none longer than `limit`. */
export function codeLengths(counts: ArrayLike<number>, limit: number): Uint8Array {
  const n = counts.length;
  const lengths = new Uint8Array(n);
  const used: number[] = [];
  for (let s = 0; s < n; s++) if (counts[s] > 0) used.push(s);
  if (used.length === 1) lengths[used[0]] = 1;
  if (used.length <= 1) return lengths;
  // Too deep a tree comes from very uneven counts: evening out the smallest ones (libwebp's way)
  // gives a slightly worse code that fits.
  for (let floor = 1; ; floor *= 2) {
    const weights = used.map((s) => Math.max(counts[s], floor));
    const depths = huffmanDepths(weights);
    if (Math.max(...depths) <= limit) {
      used.forEach((s, i) => (lengths[s] = depths[i]));
      return lengths;
    }
  }
}

/** Depths of the leaves of a Huffman tree over `weights` (two or more), by the two-queue method. */
function huffmanDepths(weights: number[]): number[] {
  const order = weights.map((_, i) => i).sort((a, b) => weights[a] - weights[b] || a - b);
  const n = weights.length;
  // Nodes 0..n-1 are the leaves in sorted order, n.. the merged ones; parent[] links them up.
  const weight = new Float64Array(2 * n);
  const parent = new Int32Array(2 * n);
  order.forEach((leaf, i) => (weight[i] = weights[leaf]));
  let leaf = 0;
  let merged = n;
  let next = n;
  const take = () => (leaf < n && (merged >= next || weight[leaf] <= weight[merged]) ? leaf++ : merged++);
  while (next < 2 * n - 1) {
    const a = take();
    const b = take();
    weight[next] = weight[a] + weight[b];
    parent[a] = next;
    parent[b] = next;
    next++;
  }
  const depth = new Int32Array(2 * n);
  for (let i = 2 * n - 3; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
  const out = new Array<number>(n);
  order.forEach((leafIndex, i) => (out[leafIndex] = depth[i]));
  return out;
}

/** The canonical code for `lengths` (shorter codes first, then by symbol). */
export function canonical(lengths: Uint8Array): PrefixCode {
  const bits = new Uint8Array(lengths.length);
  const codes = new Uint16Array(lengths.length);
  const usedCount = lengths.reduce((n, l) => n + (l > 0 ? 1 : 0), 0);
  if (usedCount <= 1) return { bits, codes };
  const perLength = new Array<number>(16).fill(0);
  for (const l of lengths) if (l) perLength[l]++;
  const next = new Array<number>(16).fill(0);
  for (let l = 1, code = 0; l < 16; l++) {
    code = (code + perLength[l - 1]) << 1;
    next[l] = code;
  }
  for (let s = 0; s < lengths.length; s++) {
    const l = lengths[s];
    if (!l) continue;
    bits[s] = l;
    codes[s] = reverse(next[l]++, l);
  }
  return { bits, codes };
}

function reverse(code: number, length: number): number {
  let out = 0;
  for (let i = 0; i < length; i++) out |= ((code >> i) & 1) << (length - 1 - i);
  return out;
}

/** Writes the code for `counts` to `w` and returns it for writing symbols. */
export function writeCode(w: BitWriter, counts: ArrayLike<number>): PrefixCode {
  const lengths = codeLengths(counts, 15);
  const used: number[] = [];
  for (let s = 0; s < lengths.length && used.length < 3; s++) if (lengths[s]) used.push(s);
  if (used.length === 0) used.push(0);
  if (used.length <= 2 && used.every((s) => s < 256)) {
    // Simple code: one or two 8-bit symbols (a first one that fits in 1 bit may take 1 bit).
    w.write(1, 1);
    w.write(1, used.length - 1);
    const wide = used[0] > 1;
    w.write(1, wide ? 1 : 0);
    w.write(wide ? 8 : 1, used[0]);
    if (used.length === 2) w.write(8, used[1]);
    const code: PrefixCode = { bits: new Uint8Array(lengths.length), codes: new Uint16Array(lengths.length) };
    if (used.length === 2) {
      code.bits[used[0]] = 1;
      code.bits[used[1]] = 1;
      code.codes[used[1]] = 1;
    }
    return code;
  }
  w.write(1, 0);
  writeLengths(w, lengths);
  return canonical(lengths);
}

/** The lengths as run-length tokens, themselves prefix coded. */
function writeLengths(w: BitWriter, lengths: Uint8Array): void {
  const tokens = runLengthTokens(lengths);
  const counts = new Array<number>(19).fill(0);
  for (const t of tokens) counts[t.symbol]++;
  const lengthLengths = codeLengths(counts, 7);
  let written = 19;
  while (written > 4 && lengthLengths[CODE_LENGTH_ORDER[written - 1]] === 0) written--;
  w.write(4, written - 4);
  for (let i = 0; i < written; i++) w.write(3, lengthLengths[CODE_LENGTH_ORDER[i]]);
  // Every length is written (no max_symbol), so the decoder needs no count of tokens.
  w.write(1, 0);
  const code = canonical(lengthLengths);
  for (const t of tokens) {
    w.write(code.bits[t.symbol], code.codes[t.symbol]);
    if (t.symbol === 16) w.write(2, t.extra);
    else if (t.symbol === 17) w.write(3, t.extra);
    else if (t.symbol === 18) w.write(7, t.extra);
  }
}

function runLengthTokens(lengths: Uint8Array): { symbol: number; extra: number }[] {
  const tokens: { symbol: number; extra: number }[] = [];
  // The decoder's "previous non-zero length" starts at 8.
  let previous = 8;
  for (let i = 0; i < lengths.length; ) {
    const l = lengths[i];
    let run = 1;
    while (i + run < lengths.length && lengths[i + run] === l) run++;
    if (l === 0 && run >= 3) {
      const n = Math.min(run, 138);
      tokens.push(n >= 11 ? { symbol: 18, extra: n - 11 } : { symbol: 17, extra: n - 3 });
      i += n;
      continue;
    }
    if (l !== 0 && l === previous && run >= 3) {
      const n = Math.min(run, 6);
      tokens.push({ symbol: 16, extra: n - 3 });
      i += n;
      continue;
    }
    tokens.push({ symbol: l, extra: 0 });
    if (l !== 0) previous = l;
    i++;
  }
  return tokens;
}
