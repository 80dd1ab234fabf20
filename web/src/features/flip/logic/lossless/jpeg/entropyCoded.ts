// A scan's entropy-coded segment: its stuffed bytes and restart markers taken out (unstuff), and
// the bits read from what remains (BitReader, for progressive scans; sequential.ts reads its own).
import { LOOKAHEAD, type DecodeTable } from './huffman';
import { damaged } from './unsupported';

export function isRestart(marker: number): boolean {
  return marker >= 0xd0 && marker <= 0xd7;
}

/**
 * A scan's entropy-coded data with the stuffed zero bytes taken out, split at its restart
 * markers: reading bits from it then needs no test per byte. Ends where a marker other than
 * RSTn begins (or at the end of the file).
 */
export function unstuff(b: Uint8Array, start: number): { data: Uint8Array; intervals: number[]; end: number } {
  // Stuffing only ever adds bytes, so the copy is never longer; eight zero bytes at its end
  // let a reader run on into padding, as libjpeg reads missing data as zeros.
  const data = new Uint8Array(b.length - start + 8);
  const intervals = [0];
  let n = 0;
  let i = start;
  // Runs without 0xFF are copied whole (natively); each 0xFF is looked at on its own.
  for (;;) {
    const ff = b.indexOf(0xff, i);
    const stop = ff < 0 ? b.length : ff;
    data.set(b.subarray(i, stop), n);
    n += stop - i;
    i = stop;
    if (ff < 0) break;
    const next = b[i + 1];
    if (next === 0) {
      data[n++] = 0xff;
      i += 2;
    } else if (next !== undefined && isRestart(next)) {
      intervals.push(n);
      i += 2;
    } else if (next === 0xff) i++; // fill byte before a marker
    else break;
  }
  return { data: data.subarray(0, n + 8), intervals, end: i };
}

/** Reads bits from unstuffed data, 16 at a time; past its end, zeros. */
export class BitReader {
  private pos = 0;
  private buffer = 0;
  private count = 0;

  constructor(private readonly data: Uint8Array) {}

  /** Jumps to a restart interval's first byte. */
  seek(pos: number) {
    this.pos = Math.min(pos, this.data.length - 2);
    this.buffer = 0;
    this.count = 0;
  }

  private fill() {
    // count ≤ 16 here, so 16 more bits fit the 32-bit buffer.
    const p = this.pos;
    this.buffer = (this.buffer << 16) | (this.data[p] << 8) | this.data[p + 1];
    this.count += 16;
    if (p + 4 <= this.data.length) this.pos = p + 2;
  }

  bit(): number {
    if (this.count === 0) this.fill();
    return (this.buffer >>> --this.count) & 1;
  }

  /** n ≤ 16 bits. */
  bits(n: number): number {
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.buffer >>> this.count) & ((1 << n) - 1);
  }

  /** A value of n ≥ 1 bits, sign-extended as JPEG codes it (T.81 F.2.2.1). */
  receive(n: number): number {
    const v = this.bits(n);
    // Without a branch: its sign is as good as random, so a branch would often be mispredicted.
    // A clear top bit means negative: v - 2ⁿ + 1.
    return v + ((((v >> (n - 1)) & 1) - 1) & (1 - (1 << n)));
  }

  symbol(t: DecodeTable): number {
    if (this.count < 16) this.fill();
    const e = t.fast[(this.buffer >>> (this.count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1)];
    if (e !== 0) {
      this.count -= e >> 8;
      return e & 0xff;
    }
    for (let length = LOOKAHEAD + 1; length <= 16; length++) {
      const code = (this.buffer >>> (this.count - length)) & ((1 << length) - 1);
      if (code <= t.maxCode[length]) {
        this.count -= length;
        return t.symbols[t.offset[length] + code];
      }
    }
    throw damaged('bad Huffman code');
  }
}
