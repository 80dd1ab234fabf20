// A sequential scan (every baseline JPEG, most photos) straight into the compact form of the
// coefficients: the hot loop of the lossless path.
import { packByMask, TRANSPOSED, type Component } from './coefficients';
import type { Frame } from './frame';
import { LOOKAHEAD, type DecodeTable } from './huffman';
import type { ScanBlocks } from './scanOrder';
import { damaged } from './unsupported';

/** A code longer than LOOKAHEAD bits, from the top of `bits` (16 or more valid bits): (length << 8) | symbol. */
function longCode(t: DecodeTable, buffer: number, count: number): number {
  for (let length = LOOKAHEAD + 1; length <= 16; length++) {
    const code = (buffer >>> (count - length)) & ((1 << length) - 1);
    if (code <= t.maxCode[length]) return (length << 8) | t.symbols[t.offset[length] + code];
  }
  throw damaged('bad Huffman code');
}

/**
 * A sequential scan, the common case and the one that must be fast: the bit reader lives in
 * local variables (several times faster than object fields), refilled 16 bits at a time. The
 * AC coefficients are read by one of two loops, as they are or transposed: the same bit reading
 * with a different step at each coefficient, written out twice because it must stay in these
 * local variables, and because one loop for both slowed the flips by a test per coefficient.
 */
export function decodeSequential(
  data: Uint8Array,
  intervals: number[],
  order: ScanBlocks,
  blocksPerInterval: number,
  comps: Component[],
  tables: { dc: DecodeTable; ac: DecodeTable }[],
  frame: Frame,
) {
  const transposed = frame.transposed;
  const last = data.length - 2;
  let pos = 0;
  let buffer = 0;
  let count = 0;
  let interval = 0;
  const pred = new Int32Array(comps.length);
  const { owner, at, real } = order;
  const words = frame.ac.words;
  let n = frame.ac.length;
  // Padding blocks are counted here, where nobody looks: no branch per coefficient.
  const uncounted = new Uint32Array(257);
  for (let i = 0; i < at.length; i++) {
    if (blocksPerInterval && i > 0 && i % blocksPerInterval === 0) {
      pos = Math.min(intervals[++interval] ?? last, last);
      buffer = 0;
      count = 0;
      pred.fill(0);
    }
    const ci = owner[i];
    const c = comps[ci];
    const block = at[i];
    const { dc, ac } = tables[ci];

    // Each refill below adds 16 bits when fewer than 16 are left; past the end it reads zeros.
    if (count < 16) {
      buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
      count += 16;
      if (pos < last) pos += 2;
    }
    let e = dc.fast[(buffer >>> (count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1)] || longCode(dc, buffer, count);
    count -= e >> 8;
    let size = e & 15;
    if (size) {
      if (count < 16) {
        buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
        count += 16;
        if (pos < last) pos += 2;
      }
      count -= size;
      const v = (buffer >>> count) & ((1 << size) - 1);
      // Sign extension without a branch (signs are as good as random): a clear top bit is negative.
      pred[ci] += v + ((((v >> (size - 1)) & 1) - 1) & (1 - (1 << size)));
    }
    c.dc[block] = pred[ci]!;

    // The AC symbols a baseline encoder would write for this block are counted on the way (see
    // Component.acSymbols): the run from the last non-zero coefficient, ZRLs for every 16.
    const symbols = real[i] ? c.acSymbols : uncounted;
    const start = n;
    if (transposed) {
      // Each coefficient goes to its transposed position among the block's next 64 words, with
      // a bit in a 64-bit mask; the block is then packed, and its symbols counted, in that order.
      if (n + 64 > words.length) throw damaged('more coefficients than the file can hold');
      let low = 0;
      let high = 0;
      for (let k = 1; k < 64; k++) {
        if (count < 16) {
          buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
          count += 16;
          if (pos < last) pos += 2;
        }
        const next = (buffer >>> (count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1);
        const whole = ac.fastAc[next];
        let coefficient; // value << 8, and its size in the low four bits
        if (whole !== 0) {
          // A short code and a small value together: one lookup.
          count -= whole & 0xff;
          k += (whole >> 12) & 15;
          coefficient = whole >> 8;
        } else {
          e = ac.fast[next] || longCode(ac, buffer, count);
          count -= e >> 8;
          size = e & 15;
          if (size === 0) {
            if ((e & 0xff) !== 0xf0) break; // EOB
            k += 15; // ZRL: 16 zeros
            continue;
          }
          k += (e >> 4) & 15;
          if (count < 16) {
            buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
            count += 16;
            if (pos < last) pos += 2;
          }
          count -= size;
          const v = (buffer >>> count) & ((1 << size) - 1);
          coefficient = ((v + ((((v >> (size - 1)) & 1) - 1) & (1 - (1 << size)))) << 8) | size;
        }
        const t = TRANSPOSED[k];
        words[start + t] = coefficient;
        // Without a branch: shifts count modulo 32, and t >> 5 picks the half of the mask.
        low |= (1 << t) & ((t >> 5) - 1);
        high |= (1 << t) & -(t >> 5);
      }
      if (low & 1) throw damaged('coefficients past the end of a block'); // see TRANSPOSED
      n = packByMask(words, start, low, high, symbols);
    } else {
      let previous = 0;
      for (let k = 1; k < 64; ) {
        if (count < 16) {
          buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
          count += 16;
          if (pos < last) pos += 2;
        }
        const next = (buffer >>> (count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1);
        const whole = ac.fastAc[next];
        if (whole !== 0) {
          // A short code and a small value together: one lookup.
          count -= whole & 0xff;
          k += (whole >> 12) & 15;
          if (k > 63 || n === words.length) throw damaged('coefficients past the end of a block');
          const run = k - previous - 1;
          symbols[0xf0] += run >> 4;
          symbols[((run & 15) << 4) | ((whole >> 8) & 15)]++;
          previous = k;
          words[n++] = ((whole >> 16) << 8) | k++;
          continue;
        }
        e = ac.fast[next] || longCode(ac, buffer, count);
        count -= e >> 8;
        size = e & 15;
        if (size === 0) {
          if ((e & 0xff) !== 0xf0) break; // EOB
          k += 16;
          continue;
        }
        k += (e >> 4) & 15;
        if (k > 63) throw damaged('coefficients past the end of a block');
        if (count < 16) {
          buffer = (buffer << 16) | (data[pos] << 8) | data[pos + 1];
          count += 16;
          if (pos < last) pos += 2;
        }
        count -= size;
        const v = (buffer >>> count) & ((1 << size) - 1);
        if (n === words.length) throw damaged('more coefficients than the file can hold');
        const run = k - previous - 1;
        symbols[0xf0] += run >> 4;
        symbols[((run & 15) << 4) | size]++;
        previous = k;
        words[n++] = ((v + ((((v >> (size - 1)) & 1) - 1) & (1 - (1 << size)))) << 8) | k++;
      }
      if (previous < 63) symbols[0]++; // EOB
    }
    c.acStart[block] = start;
    c.acCount[block] = n - start;
  }
  frame.ac.length = n;
}
