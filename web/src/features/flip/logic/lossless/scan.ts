// Huffman-coded scans into coefficients. A sequential scan (every baseline JPEG, most photos)
// goes straight into the compact form with a bit reader held in local variables, as fast as
// this gets in JavaScript; a progressive scan refines full 64-coefficient blocks, and the frame
// is made compact once all its scans are in (decode.ts). Restart markers are honoured in both.
import { packByMask, TRANSPOSED, ZIGZAG, type AcCoefficients, type Component } from './coefficients';
import { LOOKAHEAD, type DecodeTable } from './huffman';
import { damaged } from './unsupported';

export interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  components: FrameComponent[];
  mcusWide: number;
  mcusHigh: number;
  /** The non-zero AC coefficients as they are decoded (sequential scans) or gathered (progressive). */
  ac: { words: AcCoefficients; length: number };
  /** Keep the blocks transposed (Coefficients.transposed). */
  transposed: boolean;
}

export interface FrameComponent extends Component {
  /** Progressive only: all 64 coefficients of each block in natural order, refined scan by scan. */
  full?: Int16Array;
}

export function isRestart(marker: number): boolean {
  return marker >= 0xd0 && marker <= 0xd7;
}

/**
 * A scan's entropy-coded data with the stuffed zero bytes taken out, split at its restart
 * markers: reading bits from it then needs no test per byte. Ends where a marker other than
 * RSTn begins (or at the end of the file).
 */
function unstuff(b: Uint8Array, start: number): { data: Uint8Array; intervals: number[]; end: number } {
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
class BitReader {
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

/** Decodes one scan into the frame's coefficients; returns where its data ends. */
export function readScan(
  b: Uint8Array,
  at: number,
  seg: Uint8Array,
  frame: Frame,
  dcTables: (DecodeTable | undefined)[],
  acTables: (DecodeTable | undefined)[],
  restartInterval: number,
): number {
  const n = seg[0];
  if (n < 1 || n > 4 || seg.length < 4 + 2 * n) throw damaged('bad scan header');
  const scanComps = Array.from({ length: n }, (_, i) => {
    const c = frame.components.find((c) => c.id === seg[1 + 2 * i]);
    if (!c) throw damaged('scan of an unknown component');
    return { c, dc: dcTables[seg[2 + 2 * i] >> 4], ac: acTables[seg[2 + 2 * i] & 15], pred: 0 };
  });
  const ss = seg[1 + 2 * n];
  const se = seg[2 + 2 * n];
  const ah = seg[3 + 2 * n] >> 4;
  const al = seg[3 + 2 * n] & 15;
  if (!frame.progressive && (ss !== 0 || se !== 63 || ah !== 0 || al !== 0)) throw damaged('progressive parameters in a sequential scan');
  if (ss > se || se > 63 || (ss === 0 && se !== 0 && frame.progressive) || al > 13) throw damaged('bad spectral selection');
  if (ss > 0 && n !== 1) throw damaged('an AC scan of several components');

  const { data, intervals, end } = unstuff(b, at);
  const order = scanBlocks(frame, scanComps.map((s) => s.c));
  if (!frame.progressive) {
    const tables = scanComps.map((s) => ({ dc: s.dc ?? missingTable(), ac: s.ac ?? missingTable() }));
    decodeSequential(data, intervals, order, restartInterval * order.perMcu, scanComps.map((s) => s.c), tables, frame);
    return end;
  }
  const r = new BitReader(data);
  let eobrun = 0;
  const p1 = 1 << al;
  const m1 = -1 << al;

  const decodeBlock = (s: (typeof scanComps)[number], coefs: Int16Array, o: number) => {
    if (ss === 0) {
      if (ah === 0) {
        const t = r.symbol(s.dc ?? missingTable());
        s.pred += t === 0 ? 0 : r.receive(t);
        coefs[o] = s.pred * p1;
      } else if (r.bit()) coefs[o] |= p1;
    } else if (ah === 0) {
      if (eobrun > 0) {
        eobrun--;
        return;
      }
      const ac = s.ac ?? missingTable();
      for (let k = ss; k <= se; ) {
        const rs = r.symbol(ac);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0) {
          if (run < 15) {
            eobrun = (1 << run) - 1 + r.bits(run);
            break;
          }
          k += 16;
          continue;
        }
        k += run;
        if (k > 63) throw damaged('coefficients past the end of a block');
        coefs[o + ZIGZAG[k]] = r.receive(size) * p1;
        k++;
      }
    } else refineAc(coefs, o);
  };

  // Successive approximation of AC coefficients (T.81 G.1.2.3), as libjpeg's decode_mcu_AC_refine.
  const refineAc = (coefs: Int16Array, o: number) => {
    const ac = scanComps[0].ac ?? missingTable();
    const correct = (i: number) => {
      if (r.bit() && (coefs[i] & p1) === 0) coefs[i] += coefs[i] >= 0 ? p1 : m1;
    };
    let k = ss;
    if (eobrun === 0) {
      for (; k <= se; k++) {
        const rs = r.symbol(ac);
        let run = rs >> 4;
        const size = rs & 15;
        let value = 0;
        if (size !== 0) {
          if (size !== 1) throw damaged('bad refinement');
          value = r.bit() ? p1 : m1;
        } else if (run !== 15) {
          eobrun = (1 << run) + r.bits(run);
          break;
        }
        // Skip `run` zero coefficients, refining the non-zero ones on the way.
        while (k <= se) {
          const i = o + ZIGZAG[k];
          if (coefs[i] !== 0) correct(i);
          else if (--run < 0) break;
          k++;
        }
        if (value !== 0 && k <= se) coefs[o + ZIGZAG[k]] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const i = o + ZIGZAG[k];
        if (coefs[i] !== 0) correct(i);
      }
      eobrun--;
    }
  };

  let interval = 0;
  const restart = () => {
    r.seek(intervals[++interval] ?? data.length);
    eobrun = 0;
    for (const s of scanComps) s.pred = 0;
  };

  for (let i = 0; i < order.at.length; i++) {
    if (restartInterval && i > 0 && i % (restartInterval * order.perMcu) === 0) restart();
    const s = scanComps[order.owner[i]];
    decodeBlock(s, s.c.full!, order.at[i] * 64);
  }
  return end;
}

interface ScanBlocks {
  /** By block in coding order: its component (index in the scan), and its block index. */
  owner: Uint8Array;
  at: Int32Array;
  /** 1 for a block holding image data, 0 for the padding of the last MCU column or row. */
  real: Uint8Array;
  perMcu: number;
}

function scanBlocks(frame: Frame, comps: Component[]): ScanBlocks {
  if (comps.length === 1) {
    // One component: its blocks in raster order, only those holding data.
    const c = comps[0];
    const at = new Int32Array(c.blocksWide * c.blocksHigh);
    for (let y = 0, i = 0; y < c.blocksHigh; y++) for (let x = 0; x < c.blocksWide; x++) at[i++] = y * c.stride + x;
    return { owner: new Uint8Array(at.length), at, real: new Uint8Array(at.length).fill(1), perMcu: 1 };
  }
  const perMcu = comps.reduce((n, c) => n + c.h * c.v, 0);
  const owner = new Uint8Array(frame.mcusWide * frame.mcusHigh * perMcu);
  const at = new Int32Array(owner.length);
  const real = new Uint8Array(owner.length);
  let i = 0;
  for (let my = 0; my < frame.mcusHigh; my++) {
    for (let mx = 0; mx < frame.mcusWide; mx++) {
      comps.forEach((c, ci) => {
        for (let by = 0; by < c.v; by++) {
          for (let bx = 0; bx < c.h; bx++, i++) {
            const x = mx * c.h + bx;
            const y = my * c.v + by;
            owner[i] = ci;
            at[i] = y * c.stride + x;
            real[i] = Number(x < c.blocksWide && y < c.blocksHigh);
          }
        }
      });
    }
  }
  return { owner, at, real, perMcu };
}

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
function decodeSequential(
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

function missingTable(): never {
  throw damaged('a scan uses a Huffman table the file does not define');
}
