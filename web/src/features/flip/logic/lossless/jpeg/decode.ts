// Reads a JPEG's quantised DCT coefficients: the markers, then each scan (scan.ts). Nothing is
// dequantised or inverse-transformed. What the lossless path cannot carry over exactly
// (arithmetic coding, 12-bit samples, CMYK or RGB colour, lossless or hierarchical JPEG) is
// refused with a reason, for the page to fall back to decoding and re-encoding.
import { componentBlocks, countAcSymbols, maxSampling, ZIGZAG, ZIGZAG_TRANSPOSED, type Coefficients, type Jfif } from './coefficients';
import { decodeTable, type DecodeTable } from './huffman';
import { isRestart } from './entropyCoded';
import type { Frame, FrameComponent } from './frame';
import { readScan } from './scan';
import { damaged, UnsupportedJpeg } from './unsupported';

export { UnsupportedJpeg, type Unsupported } from './unsupported';

/**
 * The coefficients of a JPEG, or throws UnsupportedJpeg. `transposed`: keep the blocks
 * transposed, for a transform that swaps the axes (Coefficients.transposed).
 */
export function readCoefficients(b: Uint8Array, { transposed = false } = {}): Coefficients {
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
    while (pos < b.length && !(b[pos] === 0xff && b[pos + 1] !== 0xff && b[pos + 1] !== 0 && !isRestart(b[pos + 1]))) pos++;
    if (pos + 1 >= b.length) break; // no EOI: a file cut short keeps what its scans had
    const marker = b[pos + 1];
    if (marker === 0xd9) break;
    const length = (b[pos + 2] << 8) | b[pos + 3];
    const start = pos + 4;
    const end = pos + 2 + length;
    if (length < 2 || end > b.length) throw damaged(`segment 0x${marker.toString(16)} runs past the end`);
    const seg = b.subarray(start, end);
    pos = end;
    if (marker === 0xdb) readQuant(seg, quant);
    else if (marker === 0xc4) readHuffman(seg, dcTables, acTables);
    else if (marker === 0xdd) restartInterval = (seg[0] << 8) | seg[1];
    else if (marker === 0xe0 && seg.length >= 14 && String.fromCharCode(...seg.subarray(0, 5)) === 'JFIF\0') {
      jfif = { major: seg[5], minor: seg[6], unit: seg[7], xDensity: (seg[8] << 8) | seg[9], yDensity: (seg[10] << 8) | seg[11] };
    } else if (marker === 0xee && seg.length >= 12 && String.fromCharCode(...seg.subarray(0, 5)) === 'Adobe') adobeTransform = seg[11];
    else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (frame) throw damaged('two frame headers');
      frame = readFrame(seg, marker === 0xc2, jfif !== undefined, adobeTransform, b.length, transposed);
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
  const components = frame.components.map(({ full: _, ...c }) => c);
  return { width: frame.width, height: frame.height, components, ac: frame.ac.words.subarray(0, frame.ac.length), quant, jfif, transposed };
}

/** Progressive: the blocks' final coefficients, into the compact form sequential scans write directly. */
function gather(frame: Frame) {
  const ac = frame.ac;
  const natural = frame.transposed ? ZIGZAG_TRANSPOSED : ZIGZAG;
  for (const c of frame.components) {
    const full = c.full;
    if (!full) continue;
    for (let block = 0; block < c.dc.length; block++) {
      const o = block * 64;
      c.dc[block] = full[o]!;
      c.acStart[block] = ac.length;
      for (let k = 1; k < 64; k++) {
        const v = full[o + natural[k]];
        if (v !== 0) ac.words[ac.length++] = (v << 8) | k;
      }
      c.acCount[block] = ac.length - c.acStart[block];
    }
    for (let y = 0; y < c.blocksHigh; y++) {
      for (let x = 0; x < c.blocksWide; x++) {
        const block = y * c.stride + x;
        countAcSymbols(ac.words, c.acStart[block], c.acCount[block], c.acSymbols, 1);
      }
    }
  }
}

function readQuant(seg: Uint8Array, quant: (Uint16Array | undefined)[]) {
  for (let i = 0; i < seg.length; ) {
    const precision = seg[i] >> 4;
    const id = seg[i] & 15;
    const size = precision ? 128 : 64;
    if (id > 3 || precision > 1 || i + 1 + size > seg.length) throw damaged('bad quantisation table');
    const table = new Uint16Array(64);
    for (let k = 0; k < 64; k++) table[ZIGZAG[k]] = precision ? (seg[i + 1 + 2 * k] << 8) | seg[i + 2 + 2 * k] : seg[i + 1 + k];
    quant[id] = table;
    i += 1 + size;
  }
}

function readHuffman(seg: Uint8Array, dc: (DecodeTable | undefined)[], ac: (DecodeTable | undefined)[]) {
  for (let i = 0; i < seg.length; ) {
    const cls = seg[i] >> 4;
    const id = seg[i] & 15;
    const counts = seg.subarray(i + 1, i + 17);
    const total = counts.reduce((a, n) => a + n, 0);
    if (cls > 1 || id > 3 || counts.length < 16 || i + 17 + total > seg.length || total > 256) throw damaged('bad Huffman table');
    const table = decodeTable({ counts, symbols: seg.subarray(i + 17, i + 17 + total) });
    (cls ? ac : dc)[id] = table;
    i += 17 + total;
  }
}

function readFrame(
  seg: Uint8Array,
  progressive: boolean,
  jfif: boolean,
  adobeTransform: number | undefined,
  fileSize: number,
  transposed: boolean,
): Frame {
  if (seg[0] !== 8) throw new UnsupportedJpeg('precision', `${seg[0]}-bit samples`);
  const height = (seg[1] << 8) | seg[2];
  const width = (seg[3] << 8) | seg[4];
  const count = seg[5];
  if (width === 0 || height === 0) throw damaged('no size in the frame header (DNL is not supported)');
  if (seg.length < 6 + 3 * count) throw damaged('short frame header');
  if (count !== 1 && count !== 3) throw new UnsupportedJpeg('colour', `${count} colour components`);
  const raw = Array.from({ length: count }, (_, i) => ({
    id: seg[6 + 3 * i],
    h: seg[7 + 3 * i] >> 4,
    v: seg[7 + 3 * i] & 15,
    tq: seg[8 + 3 * i],
  }));
  if (raw.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3)) throw damaged('bad sampling factors');
  // Three components are YCbCr unless the file says RGB, as libjpeg reads it: an Adobe marker
  // with transform 0 (and no JFIF), or the ids 'R', 'G', 'B'.
  const rgb = count === 3 && ((!jfif && adobeTransform === 0) || (raw[0].id === 0x52 && raw[1].id === 0x47 && raw[2].id === 0x42));
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
  // code and a value), and a block holds 63 at most (it spreads over 64 words before a quarter
  // turn packs it), so this bounds them; the memory is only touched as far as it is used.
  const bound = Math.min(64 * blocks, 8 * fileSize);
  const ac = { words: new Int32Array(bound), length: 0 };
  return { width, height, progressive, components, mcusWide, mcusHigh, ac, transposed };
}
