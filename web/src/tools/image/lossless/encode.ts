// Writes a planned (transformed) image as a baseline JPEG with optimal Huffman tables, laid out
// as libjpeg lays out `jpegtran -optimize` output: SOI, JFIF, the kept metadata, one DQT per
// table, SOF0 (SOF1 for 16-bit tables), then one scan with its DHTs. Counting the symbols
// first and coding them second costs a second pass, and makes the file about as small as the
// camera's.
import { maxSampling, ZIGZAG } from './coefficients';
import { encodeTable, optimalTable, type HuffmanSpec } from './huffman';
import type { Plan } from './rearrange';

// The signs of coefficients are as good as random, so a branch on one is mispredicted half the
// time, at the cost of many simple instructions: the sign-dependent steps below use none.

/** The bit length of |v| (its JPEG magnitude category), for |v| < 2¹⁵. */
function category(v: number): number {
  const sign = v >> 31;
  return 32 - Math.clz32((v ^ sign) - sign);
}

/** The bits JPEG writes for a value: the value itself, or one less when negative. */
function valueBits(v: number): number {
  return v + (v >> 31);
}

/**
 * The blocks of the single scan in order, MCU by MCU when there are several components: the
 * component of each and its input block, or -1 for the padding blocks of the last MCU column
 * or row (which libjpeg writes as the DC of the block before and no AC).
 */
interface Order {
  readonly owner: Uint8Array;
  readonly block: Int32Array;
}

function scanOrder(p: Plan): Order {
  const comps = p.components;
  const max = maxSampling(comps);
  const single = comps.length === 1;
  const mcusWide = single ? comps[0]!.blocksWide : Math.ceil(p.width / (8 * max.h));
  const mcusHigh = single ? comps[0]!.blocksHigh : Math.ceil(p.height / (8 * max.v));
  const perMcu = single ? 1 : comps.reduce((n, c) => n + c.h * c.v, 0);
  const owner = new Uint8Array(mcusWide * mcusHigh * perMcu);
  const block = new Int32Array(owner.length);
  let i = 0;
  for (let my = 0; my < mcusHigh; my++) {
    for (let mx = 0; mx < mcusWide; mx++) {
      for (let ci = 0; ci < comps.length; ci++) {
        const c = comps[ci]!;
        const h = single ? 1 : c.h;
        const v = single ? 1 : c.v;
        for (let by = 0; by < v; by++) {
          const y = my * v + by;
          for (let bx = 0; bx < h; bx++, i++) {
            const x = mx * h + bx;
            owner[i] = ci;
            block[i] = x < c.blocksWide && y < c.blocksHigh ? c.origin + x * c.stepX + y * c.stepY : -1;
          }
        }
      }
    }
  }
  return { owner, block };
}

/**
 * Receives the scan's symbols in order: the table (0 DC and 1 AC of luma, 2 and 3 of chroma,
 * as libjpeg assigns them), the symbol, and the value's bits (the value itself, or one less
 * when negative, of which the symbol's size in bits count).
 */
type Emit = (table: number, symbol: number, bits: number) => void;

/** Walks the scan, giving each symbol to `emit`: once to count them, once to write them. */
function walkScan(p: Plan, order: Order, emit: Emit) {
  const pred = new Int32Array(p.components.length);
  const { position, value } = p.ac;
  const { moveTo, sign, reorders } = p;
  // One output block's non-zero AC coefficients, in its zigzag order.
  const outPosition = new Uint8Array(64);
  const outValue = new Int32Array(64);
  for (let i = 0; i < order.block.length; i++) {
    const ci = order.owner[i]!;
    const c = p.components[ci]!;
    const dcTable = ci === 0 ? 0 : 2;
    const acTable = dcTable + 1;
    const block = order.block[i]!;
    if (block < 0) {
      emit(dcTable, 0, 0);
      emit(acTable, 0, 0);
      continue;
    }
    const diff = c.dc[block]! - pred[ci]!;
    pred[ci] = c.dc[block]!;
    const dcSize = category(diff);
    if (dcSize > 11) throw new RangeError('a DC difference out of range for 8-bit JPEG');
    emit(dcTable, dcSize, valueBits(diff));

    const start = c.acStart[block]!;
    const count = c.acCount[block]!;
    for (let j = 0; j < count; j++) {
      const k = moveTo[position[start + j]!]!;
      const v = value[start + j]! * sign[k]!;
      // A transpose reverses the order within each anti-diagonal: sort back (a few at most).
      let at = j;
      if (reorders) {
        for (; at > 0 && outPosition[at - 1]! > k; at--) {
          outPosition[at] = outPosition[at - 1]!;
          outValue[at] = outValue[at - 1]!;
        }
      }
      outPosition[at] = k;
      outValue[at] = v;
    }
    let previous = 0;
    for (let j = 0; j < count; j++) {
      const k = outPosition[j]!;
      const v = outValue[j]!;
      let run = k - previous - 1;
      for (; run > 15; run -= 16) emit(acTable, 0xf0, 0);
      const size = category(v);
      if (size > 10) throw new RangeError('an AC coefficient out of range for 8-bit JPEG');
      emit(acTable, (run << 4) | size, valueBits(v));
      previous = k;
    }
    // Zeros after the last non-zero coefficient end with an EOB (none when it is the 63rd).
    if (previous < 63) emit(acTable, 0, 0);
  }
}

/** Appends bytes, and bits with 0xFF stuffing, to a growing buffer. */
class Writer {
  private out: Uint8Array;
  length = 0;
  private acc = 0;
  private count = 0;

  constructor(capacity: number) {
    this.out = new Uint8Array(capacity);
  }

  /** Makes room for n more bytes. */
  room(n: number) {
    if (this.length + n <= this.out.length) return;
    const bigger = new Uint8Array(Math.max(this.out.length * 2, this.length + n));
    bigger.set(this.out.subarray(0, this.length));
    this.out = bigger;
  }

  bytes(b: ArrayLike<number>) {
    this.room(b.length);
    this.out.set(b, this.length);
    this.length += b.length;
  }

  /** A marker segment: 0xFF, the marker, the length, the payload. */
  segment(marker: number, payload: ArrayLike<number>) {
    this.bytes([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
    this.bytes(payload);
  }

  /** The low n bits of value, n ≤ 24; the caller has made room (2 bytes per 8 bits). */
  bits(value: number, n: number) {
    // Fewer than 8 bits wait between calls, so 24 more always fit the 32-bit accumulator.
    this.acc = (this.acc << n) | (value & ((1 << n) - 1));
    this.count += n;
    while (this.count >= 8) {
      this.count -= 8;
      const byte = (this.acc >>> this.count) & 0xff;
      this.out[this.length++] = byte;
      if (byte === 0xff) this.out[this.length++] = 0;
    }
  }

  /** A Huffman code and its value's bits, making room as needed. */
  code(code: number, codeLength: number, bits: number, size: number) {
    if (this.length + 8 > this.out.length) this.room(8);
    // Both in one write when they fit, as nearly all do.
    if (codeLength + size <= 24) this.bits((code << size) | (bits & ((1 << size) - 1)), codeLength + size);
    else {
      this.bits(code, codeLength);
      this.bits(bits, size);
    }
  }

  /** Pads the last byte with one bits, as T.81 asks. */
  flush() {
    this.room(2);
    if (this.count > 0) this.bits(0x7f, 8 - this.count);
  }

  result(): Uint8Array {
    return this.out.subarray(0, this.length);
  }
}

function specBytes(cls: number, id: number, spec: HuffmanSpec): number[] {
  return [(cls << 4) | id, ...spec.counts, ...spec.symbols];
}

/** `segments`: whole APPn segments (marker included) to write after the JFIF header. */
export function writeJpeg(p: Plan, segments: readonly Uint8Array[], sizeHint: number): Uint8Array {
  const order = scanOrder(p);
  // By table as walkScan numbers them: 257 counts each, for optimalTable.
  const counts = [0, 1, 2, 3].map(() => new Uint32Array(257));
  walkScan(p, order, (table, symbol) => counts[table]![symbol]!++);
  const tables = p.components.length === 1 ? [0] : [0, 1];
  const specs = tables.map((t) => ({ dc: optimalTable(counts[2 * t]!), ac: optimalTable(counts[2 * t + 1]!) }));
  const w = new Writer(sizeHint + 4096);

  w.bytes([0xff, 0xd8]);
  // JFIF: its version and density carry over from the input; libjpeg's defaults otherwise.
  const j = p.jfif;
  const version = j && (j.major === 1 || j.major === 2) ? [j.major, j.minor] : [1, 1];
  const density = j ? [j.unit, j.xDensity >> 8, j.xDensity & 0xff, j.yDensity >> 8, j.yDensity & 0xff] : [0, 0, 1, 0, 1];
  w.segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, ...version, ...density, 0, 0]);
  for (const s of segments) w.bytes(s);

  let sixteenBit = false;
  const written = new Set<number>();
  for (const comp of p.components) {
    if (written.has(comp.tq)) continue;
    written.add(comp.tq);
    const q = p.quant[comp.tq]!;
    const wide = q.some((v) => v > 255);
    sixteenBit ||= wide;
    const payload = [(wide ? 0x10 : 0) | comp.tq];
    for (let k = 0; k < 64; k++) {
      const v = q[ZIGZAG[k]!]!;
      if (wide) payload.push(v >> 8, v & 0xff);
      else payload.push(v);
    }
    w.segment(0xdb, payload);
  }

  const frame = [8, p.height >> 8, p.height & 0xff, p.width >> 8, p.width & 0xff, p.components.length];
  for (const comp of p.components) frame.push(comp.id, (comp.h << 4) | comp.v, comp.tq);
  w.segment(sixteenBit ? 0xc1 : 0xc0, frame);

  for (const t of tables) {
    w.segment(0xc4, specBytes(0, t, specs[t]!.dc));
    w.segment(0xc4, specBytes(1, t, specs[t]!.ac));
  }
  const scan = [p.components.length];
  p.components.forEach((comp, ci) => scan.push(comp.id, ci === 0 ? 0 : 0x11));
  scan.push(0, 63, 0);
  w.segment(0xda, scan);

  const coders = specs.flatMap((s) => [encodeTable(s.dc), encodeTable(s.ac)]);
  walkScan(p, order, (table, symbol, bits) => {
    const t = coders[table]!;
    // A DC symbol is its value's size in bits; an AC symbol has it in its low four bits.
    w.code(t.code[symbol]!, t.length[symbol]!, bits, table & 1 ? symbol & 15 : symbol);
  });
  w.flush();
  w.bytes([0xff, 0xd9]);
  return w.result();
}
