// Writes a planned (transformed) image as a baseline JPEG with optimal Huffman tables, laid out
// as libjpeg lays out `jpegtran -optimize` output: SOI, JFIF, the kept metadata, one DQT per
// table, SOF0 (SOF1 for 16-bit tables), then one scan with its DHTs. Optimal tables need the
// symbols counted before any is written: the decoder has counted the AC symbols, so only the
// DCs take a pass of their own. They make the file about as small as the camera's, or smaller.
import { acPosition, acValue, category, maxSampling, ZIGZAG } from './coefficients';
import { encodeTable, optimalTable, type EncodeTable, type HuffmanSpec } from './huffman';
import type { Plan } from './rearrange';

// The signs of coefficients are as good as random, so a branch on one is mispredicted half the
// time, at the cost of many simple instructions: the sign-dependent steps below use none.

/** The bits JPEG writes for a value: the value itself, or one less when negative. */
function valueBits(v: number): number {
  return v + (v >> 31);
}

/**
 * The blocks of the single scan in order, MCU by MCU when there are several components: the
 * component of each, its DC, and where its AC coefficients are. Copied out of the components
 * in this order, so that the passes over the scan read them one after the other: a quarter
 * turn takes the blocks column by column, each of them a cache miss in the components' arrays.
 * The padding blocks of the last MCU column or row have the DC of the block before and no AC,
 * as libjpeg writes them.
 */
interface Order {
  readonly owner: Uint8Array;
  readonly dc: Int16Array;
  readonly acStart: Uint32Array;
  readonly acCount: Uint8Array;
  /** By component: its padding blocks. */
  readonly padding: Uint32Array;
}

function scanOrder(p: Plan): Order {
  const comps = p.components;
  const max = maxSampling(comps);
  const single = comps.length === 1;
  const mcusWide = single ? comps[0].blocksWide : Math.ceil(p.width / (8 * max.h));
  const mcusHigh = single ? comps[0].blocksHigh : Math.ceil(p.height / (8 * max.v));
  const perMcu = single ? 1 : comps.reduce((n, c) => n + c.h * c.v, 0);
  const owner = new Uint8Array(mcusWide * mcusHigh * perMcu);
  const dc = new Int16Array(owner.length);
  const acStart = new Uint32Array(owner.length);
  const acCount = new Uint8Array(owner.length);
  const padding = new Uint32Array(comps.length);
  const pred = new Int16Array(comps.length);
  let i = 0;
  for (let my = 0; my < mcusHigh; my++) {
    for (let mx = 0; mx < mcusWide; mx++) {
      for (let ci = 0; ci < comps.length; ci++) {
        const c = comps[ci];
        const h = single ? 1 : c.h;
        const v = single ? 1 : c.v;
        for (let by = 0; by < v; by++) {
          const y = my * v + by;
          for (let bx = 0; bx < h; bx++, i++) {
            const x = mx * h + bx;
            owner[i] = ci;
            if (x < c.blocksWide && y < c.blocksHigh) {
              const block = c.origin + x * c.stepX + y * c.stepY;
              pred[ci] = c.dc[block];
              acStart[i] = c.acStart[block];
              acCount[i] = c.acCount[block];
            } else padding[ci]++;
            dc[i] = pred[ci];
          }
        }
      }
    }
  }
  return { owner, dc, acStart, acCount, padding };
}

/** One block's symbols, DC first: each symbol and its value's bits (see valueBits). */
class BlockSymbols {
  // A DC, 63 AC and an EOB, or fewer with up to 3 ZRLs among them.
  readonly symbol = new Uint8Array(68);
  readonly bits = new Int32Array(68);
  length = 0;

  constructor(private readonly p: Plan) {}

  /** The symbols of the scan's block i, after the DC `pred`. */
  read(order: Order, i: number, pred: number) {
    const { symbol, bits } = this;
    const diff = order.dc[i] - pred;
    const dcSize = category(diff);
    if (dcSize > 11) throw new RangeError('a DC difference out of range for 8-bit JPEG');
    symbol[0] = dcSize;
    bits[0] = valueBits(diff);
    let n = 1;

    // Stored in the output's order (transposed for a quarter turn, Coefficients.transposed).
    const { sign, ac } = this.p;
    const start = order.acStart[i];
    const count = order.acCount[i];
    let previous = 0;
    for (let j = start; j < start + count; j++) {
      const k = acPosition(ac[j]);
      const v = acValue(ac[j]) * sign[k];
      let run = k - previous - 1;
      for (; run > 15; run -= 16) symbol[n++] = 0xf0; // ZRL
      const size = category(v);
      if (size > 10) throw new RangeError('an AC coefficient out of range for 8-bit JPEG');
      symbol[n] = (run << 4) | size;
      bits[n++] = valueBits(v);
      previous = k;
    }
    // Zeros after the last non-zero coefficient end with an EOB (none when it is the 63rd).
    if (previous < 63) symbol[n++] = 0;
    this.length = n;
  }
}

/** Tables 0 (DC) and 1 (AC) serve luma, 2 and 3 chroma, as libjpeg assigns them. */
const dcTableOf = (component: number) => (component === 0 ? 0 : 2);

/**
 * How often each symbol occurs, 257 counts per table (for optimalTable). The AC symbols were
 * counted by the decoder (see PlannedComponent.acSymbols): only the DCs, whose differences
 * change with the order of the blocks, and the padding blocks' EOBs need a look.
 */
function countSymbols(p: Plan, order: Order): Uint32Array {
  const counts = new Uint32Array(4 * 257);
  p.components.forEach((c, ci) => {
    const ac = (dcTableOf(ci) + 1) * 257;
    c.acSymbols.forEach((n, symbol) => {
      if (n > 0 && (symbol & 15) > 10) throw new RangeError('an AC coefficient out of range for 8-bit JPEG');
      counts[ac + symbol] += n;
    });
    counts[ac] += order.padding[ci]; // EOB
  });
  const pred = new Int32Array(p.components.length);
  for (let i = 0; i < order.dc.length; i++) {
    const ci = order.owner[i];
    const dc = dcTableOf(ci) * 257;
    const value = order.dc[i];
    const size = category(value - pred[ci]);
    if (size > 11) throw new RangeError('a DC difference out of range for 8-bit JPEG');
    counts[dc + size]++;
    pred[ci] = value;
  }
  return counts;
}

/** By symbol: its code and its length in bits, as code << 5 | length, for one lookup per symbol. */
function packed(t: EncodeTable): Int32Array {
  return Int32Array.from(t.code, (code, s) => (code << 5) | t.length[s]);
}

/**
 * The scan's entropy-coded data, `bits` long, before stuffing (see Writer.stuffed): a zero
 * after each 0xFF would cost a test per byte here, where native code does it faster after.
 */
function writeScan(p: Plan, order: Order, tables: readonly EncodeTable[], bits: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits / 8));
  const codes = tables.map(packed);
  const pred = new Int32Array(p.components.length);
  const s = new BlockSymbols(p);
  // The bit writer lives in local variables: this loop runs once per symbol of the photo.
  let n = 0;
  let acc = 0;
  let pending = 0; // bits in acc not yet written, always fewer than 8 between symbols
  for (let i = 0; i < order.dc.length; i++) {
    const ci = order.owner[i];
    s.read(order, i, pred[ci]);
    pred[ci] = order.dc[i];
    const dcCodes = codes[dcTableOf(ci)];
    const acCodes = codes[dcTableOf(ci) + 1];
    for (let j = 0; j < s.length; j++) {
      const symbol = s.symbol[j];
      const code = j === 0 ? dcCodes[symbol] : acCodes[symbol];
      // A DC symbol is its value's size in bits; an AC symbol has it in its low four bits.
      const size = j === 0 ? symbol : symbol & 15;
      const codeLength = code & 31;
      // The code and its value in one write when they fit 24 bits (nearly always), else in two.
      let word = ((code >>> 5) << size) | (s.bits[j] & ((1 << size) - 1));
      let length = codeLength + size;
      let rest = 0;
      if (length > 24) {
        word = code >>> 5;
        length = codeLength;
        rest = size;
      }
      for (;;) {
        acc = (acc << length) | word;
        pending += length;
        while (pending >= 8) {
          pending -= 8;
          out[n++] = acc >>> pending; // the store keeps the low 8 bits
        }
        if (rest === 0) break;
        word = s.bits[j] & ((1 << rest) - 1);
        length = rest;
        rest = 0;
      }
    }
  }
  // Pad the last byte with one bits, as T.81 asks.
  if (pending > 0) out[n++] = (acc << (8 - pending)) | ((1 << (8 - pending)) - 1);
  return out.subarray(0, n);
}

/** Appends bytes to a growing buffer. */
class Writer {
  buffer: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Makes room for n more bytes. */
  room(n: number) {
    if (this.length + n <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
  }

  bytes(b: ArrayLike<number>) {
    this.room(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }

  /** A marker segment: 0xFF, the marker, the length, the payload. */
  segment(marker: number, payload: ArrayLike<number>) {
    this.bytes([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
    this.bytes(payload);
  }

  /** Entropy-coded data, with a zero after each 0xFF so that none reads as a marker. */
  stuffed(data: Uint8Array) {
    this.room(data.length + (data.length >> 7) + 16);
    let from = 0;
    for (let at = data.indexOf(0xff); at >= 0; at = data.indexOf(0xff, at + 1)) {
      this.bytes(data.subarray(from, at + 1));
      this.bytes([0]);
      from = at + 1;
    }
    this.bytes(data.subarray(from));
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

function specBytes(cls: number, id: number, spec: HuffmanSpec): number[] {
  return [(cls << 4) | id, ...spec.counts, ...spec.symbols];
}

/** `segments`: whole APPn segments (marker included) to write after the JFIF header. */
export function writeJpeg(p: Plan, segments: readonly Uint8Array[], sizeHint: number): Uint8Array {
  const order = scanOrder(p);
  const counts = countSymbols(p, order);
  const count = (table: number) => counts.subarray(table * 257, (table + 1) * 257);
  const used = p.components.length === 1 ? [0] : [0, 1];
  const specs = used.map((t) => ({ dc: optimalTable(count(2 * t)), ac: optimalTable(count(2 * t + 1)) }));
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
      const v = q[ZIGZAG[k]];
      if (wide) payload.push(v >> 8, v & 0xff);
      else payload.push(v);
    }
    w.segment(0xdb, payload);
  }

  const frame = [8, p.height >> 8, p.height & 0xff, p.width >> 8, p.width & 0xff, p.components.length];
  for (const comp of p.components) frame.push(comp.id, (comp.h << 4) | comp.v, comp.tq);
  w.segment(sixteenBit ? 0xc1 : 0xc0, frame);

  for (const t of used) {
    w.segment(0xc4, specBytes(0, t, specs[t].dc));
    w.segment(0xc4, specBytes(1, t, specs[t].ac));
  }
  const scan = [p.components.length];
  p.components.forEach((comp, ci) => scan.push(comp.id, ci === 0 ? 0 : 0x11));
  scan.push(0, 63, 0);
  w.segment(0xda, scan);

  const tables = specs.flatMap((s) => [encodeTable(s.dc), encodeTable(s.ac)]);
  // The exact size of the coded data, from the counts.
  let bits = 0;
  tables.forEach((t, table) => {
    for (let symbol = 0; symbol < 256; symbol++) bits += count(table)[symbol] * (t.length[symbol] + (table & 1 ? symbol & 15 : symbol));
  });
  w.stuffed(writeScan(p, order, tables, bits));
  w.bytes([0xff, 0xd9]);
  return w.result();
}
