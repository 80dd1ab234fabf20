// Reads a JPEG's quantised DCT coefficients: the markers, then each scan's Huffman-coded data,
// baseline or progressive, with restart markers. Nothing is dequantised or inverse-transformed.
// What the lossless path cannot carry over exactly (arithmetic coding, 12-bit samples, CMYK or
// RGB colour, lossless or hierarchical JPEG) is refused with a reason, for the page to fall
// back to decoding and re-encoding.
import { componentBlocks, countAcSymbols, maxSampling, ZIGZAG, type Coefficients, type Component, type Jfif } from './coefficients';
import { decodeTable, LOOKAHEAD, type DecodeTable } from './huffman';

export type Unsupported = 'arithmetic' | 'precision' | 'colour' | 'kind' | 'damaged';

/** Why a JPEG cannot be transformed losslessly. */
export class UnsupportedJpeg extends Error {
  constructor(
    readonly reason: Unsupported,
    detail: string,
  ) {
    super(detail);
  }
}

const damaged = (detail: string) => new UnsupportedJpeg('damaged', detail);

interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  components: FrameComponent[];
  mcusWide: number;
  mcusHigh: number;
  /** The non-zero AC coefficients as they are decoded (sequential scans) or gathered (progressive). */
  ac: { position: Uint8Array; value: Int16Array; length: number };
}

interface FrameComponent extends Component {
  /** Progressive only: all 64 coefficients of each block in natural order, refined scan by scan. */
  full?: Int16Array;
}

/** The coefficients of a JPEG, or throws UnsupportedJpeg. */
export function readCoefficients(b: Uint8Array): Coefficients {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw damaged('no SOI');
  const quant: (Uint16Array | undefined)[] = [];
  const dcTables: (DecodeTable | undefined)[] = [];
  const acTables: (DecodeTable | undefined)[] = [];
  let frame: Frame | undefined;
  let jfif: Jfif | undefined;
  let adobeTransform: number | undefined;
  let restartInterval = 0;
  let pos = 2;
  for (;;) {
    // Find the next marker, skipping fill bytes (and, leniently, stray bytes after a scan).
    while (pos < b.length && !(b[pos] === 0xff && b[pos + 1] !== 0xff && b[pos + 1] !== 0 && !isRestart(b[pos + 1]!))) pos++;
    if (pos + 1 >= b.length) break; // no EOI: a file cut short keeps what its scans had
    const marker = b[pos + 1]!;
    if (marker === 0xd9) break;
    const length = (b[pos + 2]! << 8) | b[pos + 3]!;
    const start = pos + 4;
    const end = pos + 2 + length;
    if (length < 2 || end > b.length) throw damaged(`segment 0x${marker.toString(16)} runs past the end`);
    const seg = b.subarray(start, end);
    pos = end;
    if (marker === 0xdb) readQuant(seg, quant);
    else if (marker === 0xc4) readHuffman(seg, dcTables, acTables);
    else if (marker === 0xdd) restartInterval = (seg[0]! << 8) | seg[1]!;
    else if (marker === 0xe0 && seg.length >= 14 && String.fromCharCode(...seg.subarray(0, 5)) === 'JFIF\0') {
      jfif = { major: seg[5]!, minor: seg[6]!, unit: seg[7]!, xDensity: (seg[8]! << 8) | seg[9]!, yDensity: (seg[10]! << 8) | seg[11]! };
    } else if (marker === 0xee && seg.length >= 12 && String.fromCharCode(...seg.subarray(0, 5)) === 'Adobe') adobeTransform = seg[11];
    else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (frame) throw damaged('two frame headers');
      frame = readFrame(seg, marker === 0xc2, jfif !== undefined, adobeTransform, b.length);
    } else if (marker === 0xcc || (marker >= 0xc9 && marker <= 0xcf)) {
      // DAC, or a frame header SOF9–11, SOF13–15.
      throw new UnsupportedJpeg('arithmetic', 'arithmetic coding');
    } else if (marker === 0xc3 || (marker >= 0xc5 && marker <= 0xc7)) {
      throw new UnsupportedJpeg('kind', `frame type 0x${marker.toString(16)} (lossless or hierarchical)`);
    } else if (marker === 0xda) {
      if (!frame) throw damaged('scan before the frame header');
      pos = readScan(b, pos, seg, frame, dcTables, acTables, restartInterval);
    }
  }
  if (!frame) throw damaged('no frame header');
  for (const c of frame.components) if (!quant[c.tq]) throw damaged(`no quantisation table ${c.tq}`);
  if (frame.progressive) gather(frame);
  const { position, value, length } = frame.ac;
  const components = frame.components.map(({ full: _, ...c }) => c);
  return { width: frame.width, height: frame.height, components, ac: { position: position.subarray(0, length), value: value.subarray(0, length) }, quant, jfif };
}

/** Progressive: the blocks' final coefficients, into the compact form sequential scans write directly. */
function gather(frame: Frame) {
  const ac = frame.ac;
  for (const c of frame.components) {
    const full = c.full;
    if (!full) continue;
    for (let block = 0; block < c.dc.length; block++) {
      const o = block * 64;
      c.dc[block] = full[o]!;
      c.acStart[block] = ac.length;
      for (let k = 1; k < 64; k++) {
        const v = full[o + ZIGZAG[k]!]!;
        if (v === 0) continue;
        ac.position[ac.length] = k;
        ac.value[ac.length++] = v;
      }
      c.acCount[block] = ac.length - c.acStart[block]!;
    }
    for (let y = 0; y < c.blocksHigh; y++) {
      for (let x = 0; x < c.blocksWide; x++) {
        const block = y * c.stride + x;
        countAcSymbols(ac, c.acStart[block]!, c.acCount[block]!, c.acSymbols, 1);
      }
    }
  }
}

function isRestart(marker: number): boolean {
  return marker >= 0xd0 && marker <= 0xd7;
}

function readQuant(seg: Uint8Array, quant: (Uint16Array | undefined)[]) {
  for (let i = 0; i < seg.length; ) {
    const precision = seg[i]! >> 4;
    const id = seg[i]! & 15;
    const size = precision ? 128 : 64;
    if (id > 3 || precision > 1 || i + 1 + size > seg.length) throw damaged('bad quantisation table');
    const table = new Uint16Array(64);
    for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = precision ? (seg[i + 1 + 2 * k]! << 8) | seg[i + 2 + 2 * k]! : seg[i + 1 + k]!;
    quant[id] = table;
    i += 1 + size;
  }
}

function readHuffman(seg: Uint8Array, dc: (DecodeTable | undefined)[], ac: (DecodeTable | undefined)[]) {
  for (let i = 0; i < seg.length; ) {
    const cls = seg[i]! >> 4;
    const id = seg[i]! & 15;
    const counts = seg.subarray(i + 1, i + 17);
    const total = counts.reduce((a, n) => a + n, 0);
    if (cls > 1 || id > 3 || counts.length < 16 || i + 17 + total > seg.length || total > 256) throw damaged('bad Huffman table');
    const table = decodeTable({ counts, symbols: seg.subarray(i + 17, i + 17 + total) });
    (cls ? ac : dc)[id] = table;
    i += 17 + total;
  }
}

function readFrame(seg: Uint8Array, progressive: boolean, jfif: boolean, adobeTransform: number | undefined, fileSize: number): Frame {
  if (seg[0] !== 8) throw new UnsupportedJpeg('precision', `${seg[0]}-bit samples`);
  const height = (seg[1]! << 8) | seg[2]!;
  const width = (seg[3]! << 8) | seg[4]!;
  const count = seg[5]!;
  if (width === 0 || height === 0) throw damaged('no size in the frame header (DNL is not supported)');
  if (seg.length < 6 + 3 * count) throw damaged('short frame header');
  if (count !== 1 && count !== 3) throw new UnsupportedJpeg('colour', `${count} colour components`);
  const raw = Array.from({ length: count }, (_, i) => ({
    id: seg[6 + 3 * i]!,
    h: seg[7 + 3 * i]! >> 4,
    v: seg[7 + 3 * i]! & 15,
    tq: seg[8 + 3 * i]!,
  }));
  if (raw.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3)) throw damaged('bad sampling factors');
  // Three components are YCbCr unless the file says RGB, as libjpeg reads it: an Adobe marker
  // with transform 0 (and no JFIF), or the ids 'R', 'G', 'B'.
  const rgb = count === 3 && ((!jfif && adobeTransform === 0) || (raw[0]!.id === 0x52 && raw[1]!.id === 0x47 && raw[2]!.id === 0x42));
  if (rgb) throw new UnsupportedJpeg('colour', 'RGB components');
  const max = maxSampling(raw);
  const mcusWide = Math.ceil(width / (8 * max.h));
  const mcusHigh = Math.ceil(height / (8 * max.v));
  let blocks = 0;
  const components = raw.map((c): FrameComponent => {
    const stride = mcusWide * c.h;
    const count = stride * mcusHigh * c.v;
    blocks += count;
    return {
      ...c,
      ...componentBlocks(width, height, c, max),
      stride,
      dc: new Int16Array(count),
      acStart: new Uint32Array(count),
      acCount: new Uint8Array(count),
      acSymbols: new Uint32Array(257),
      full: progressive ? new Int16Array(count * 64) : undefined,
    };
  });
  // Each non-zero coefficient takes at least one bit of the file (two in a sequential scan: a
  // code and a value), so this bounds them; the memory is only touched as far as it is used.
  const bound = Math.min(63 * blocks, 8 * fileSize);
  const ac = { position: new Uint8Array(bound), value: new Int16Array(bound), length: 0 };
  return { width, height, progressive, components, mcusWide, mcusHigh, ac };
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
    this.buffer = (this.buffer << 16) | (this.data[p]! << 8) | this.data[p + 1]!;
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
    const e = t.fast[(this.buffer >>> (this.count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1)]!;
    if (e !== 0) {
      this.count -= e >> 8;
      return e & 0xff;
    }
    for (let length = LOOKAHEAD + 1; length <= 16; length++) {
      const code = (this.buffer >>> (this.count - length)) & ((1 << length) - 1);
      if (code <= t.maxCode[length]!) {
        this.count -= length;
        return t.symbols[t.offset[length]! + code]!;
      }
    }
    throw damaged('bad Huffman code');
  }
}

/** Decodes one scan into the frame's coefficients; returns where its data ends. */
function readScan(
  b: Uint8Array,
  at: number,
  seg: Uint8Array,
  frame: Frame,
  dcTables: (DecodeTable | undefined)[],
  acTables: (DecodeTable | undefined)[],
  restartInterval: number,
): number {
  const n = seg[0]!;
  if (n < 1 || n > 4 || seg.length < 4 + 2 * n) throw damaged('bad scan header');
  const scanComps = Array.from({ length: n }, (_, i) => {
    const c = frame.components.find((c) => c.id === seg[1 + 2 * i]);
    if (!c) throw damaged('scan of an unknown component');
    return { c, dc: dcTables[seg[2 + 2 * i]! >> 4], ac: acTables[seg[2 + 2 * i]! & 15], pred: 0 };
  });
  const ss = seg[1 + 2 * n]!;
  const se = seg[2 + 2 * n]!;
  const ah = seg[3 + 2 * n]! >> 4;
  const al = seg[3 + 2 * n]! & 15;
  if (!frame.progressive && (ss !== 0 || se !== 63 || ah !== 0 || al !== 0)) throw damaged('progressive parameters in a sequential scan');
  if (ss > se || se > 63 || (ss === 0 && se !== 0 && frame.progressive) || al > 13) throw damaged('bad spectral selection');
  if (ss > 0 && n !== 1) throw damaged('an AC scan of several components');

  const { data, intervals, end } = unstuff(b, at);
  const order = scanBlocks(frame, scanComps.map((s) => s.c));
  if (!frame.progressive) {
    const tables = scanComps.map((s) => ({ dc: s.dc ?? missingTable(), ac: s.ac ?? missingTable() }));
    decodeSequential(data, intervals, order, restartInterval * order.perMcu, scanComps.map((s) => s.c), tables, frame.ac);
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
      } else if (r.bit()) coefs[o]! |= p1;
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
        coefs[o + ZIGZAG[k]!] = r.receive(size) * p1;
        k++;
      }
    } else refineAc(coefs, o);
  };

  // Successive approximation of AC coefficients (T.81 G.1.2.3), as libjpeg's decode_mcu_AC_refine.
  const refineAc = (coefs: Int16Array, o: number) => {
    const ac = scanComps[0]!.ac ?? missingTable();
    const correct = (i: number) => {
      if (r.bit() && (coefs[i]! & p1) === 0) coefs[i]! += coefs[i]! >= 0 ? p1 : m1;
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
          const i = o + ZIGZAG[k]!;
          if (coefs[i] !== 0) correct(i);
          else if (--run < 0) break;
          k++;
        }
        if (value !== 0 && k <= se) coefs[o + ZIGZAG[k]!] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const i = o + ZIGZAG[k]!;
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
    const s = scanComps[order.owner[i]!]!;
    decodeBlock(s, s.c.full!, order.at[i]! * 64);
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
    const c = comps[0]!;
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
    if (code <= t.maxCode[length]!) return (length << 8) | t.symbols[t.offset[length]! + code]!;
  }
  throw damaged('bad Huffman code');
}

/**
 * A sequential scan, the common case and the one that must be fast: the bit reader lives in
 * local variables (several times faster than object fields), refilled 16 bits at a time.
 */
function decodeSequential(
  data: Uint8Array,
  intervals: number[],
  order: ScanBlocks,
  blocksPerInterval: number,
  comps: Component[],
  tables: { dc: DecodeTable; ac: DecodeTable }[],
  acOut: Frame['ac'],
) {
  const last = data.length - 2;
  let pos = 0;
  let buffer = 0;
  let count = 0;
  let interval = 0;
  const pred = new Int32Array(comps.length);
  const { owner, at, real } = order;
  const { position, value } = acOut;
  let n = acOut.length;
  // Padding blocks are counted here, where nobody looks: no branch per coefficient.
  const uncounted = new Uint32Array(257);
  for (let i = 0; i < at.length; i++) {
    if (blocksPerInterval && i > 0 && i % blocksPerInterval === 0) {
      pos = Math.min(intervals[++interval] ?? last, last);
      buffer = 0;
      count = 0;
      pred.fill(0);
    }
    const ci = owner[i]!;
    const c = comps[ci]!;
    const block = at[i]!;
    const { dc, ac } = tables[ci]!;

    // Each refill below adds 16 bits when fewer than 16 are left; past the end it reads zeros.
    if (count < 16) {
      buffer = (buffer << 16) | (data[pos]! << 8) | data[pos + 1]!;
      count += 16;
      if (pos < last) pos += 2;
    }
    let e = dc.fast[(buffer >>> (count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1)]! || longCode(dc, buffer, count);
    count -= e >> 8;
    let size = e & 15;
    if (size) {
      if (count < 16) {
        buffer = (buffer << 16) | (data[pos]! << 8) | data[pos + 1]!;
        count += 16;
        if (pos < last) pos += 2;
      }
      count -= size;
      const v = (buffer >>> count) & ((1 << size) - 1);
      // Sign extension without a branch (signs are as good as random): a clear top bit is negative.
      pred[ci] += v + ((((v >> (size - 1)) & 1) - 1) & (1 - (1 << size)));
    }
    c.dc[block] = pred[ci]!;

    // The AC symbols a baseline encoder would write for this block, counted on the way (see
    // Component.acSymbols): the run from the last non-zero coefficient, ZRLs for every 16.
    const symbols = real[i] ? c.acSymbols : uncounted;
    let previous = 0;
    const start = n;
    for (let k = 1; k < 64; ) {
      if (count < 16) {
        buffer = (buffer << 16) | (data[pos]! << 8) | data[pos + 1]!;
        count += 16;
        if (pos < last) pos += 2;
      }
      const next = (buffer >>> (count - LOOKAHEAD)) & ((1 << LOOKAHEAD) - 1);
      const whole = ac.fastAc[next]!;
      if (whole !== 0) {
        // A short code and a small value together: one lookup.
        count -= whole & 0xff;
        k += (whole >> 8) & 15;
        if (k > 63 || n === position.length) throw damaged('coefficients past the end of a block');
        const run = k - previous - 1;
        symbols[0xf0]! += run >> 4;
        symbols[((run & 15) << 4) | ((whole >> 12) & 15)]!++;
        previous = k;
        position[n] = k++;
        value[n++] = whole >> 16;
        continue;
      }
      e = ac.fast[next]! || longCode(ac, buffer, count);
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
        buffer = (buffer << 16) | (data[pos]! << 8) | data[pos + 1]!;
        count += 16;
        if (pos < last) pos += 2;
      }
      count -= size;
      const v = (buffer >>> count) & ((1 << size) - 1);
      if (n === position.length) throw damaged('more coefficients than the file can hold');
      const run = k - previous - 1;
      symbols[0xf0]! += run >> 4;
      symbols[((run & 15) << 4) | size]!++;
      previous = k;
      position[n] = k++;
      value[n++] = v + ((((v >> (size - 1)) & 1) - 1) & (1 - (1 << size)));
    }
    if (previous < 63) symbols[0]!++; // EOB
    c.acStart[block] = start;
    c.acCount[block] = n - start;
  }
  acOut.length = n;
}

function missingTable(): never {
  throw damaged('a scan uses a Huffman table the file does not define');
}
