// Output rows filtered as they come and then deflated. The filter of each row is chosen as
// libpng does by default: the one whose bytes, read as signed, sum to the least in absolute
// value; palette images and those under 8 bits are not filtered (libpng's choice too: filters
// work on bytes, not on indices or packed pixels, and mostly make those larger).
//
// The filtered image is deflated whole, by zlibSync: fflate's streaming compressor (0.8.3) can
// write back-references to before the start of the data (fflate issue #260, open), a stream
// that decoders refuse; its one-shot compressor is correct. That costs one more buffer of about
// the decoded size.
import { zlibSync } from 'fflate';
import { filterDistance, type Header } from './header';
import { paeth } from './raster';

// Deflate's strongest level: the result is to be no larger than the input, which was often
// written at a high level too; and a flip is rare next to its download, so time is cheaper.
const LEVEL = 9;
// An IDAT (or fdAT) holds at most this many bytes of the stream, so no chunk is huge.
export const MAX_DATA_CHUNK = 1 << 20;

export class RowEncoder {
  private readonly out: Uint8Array;
  private readonly trial: Uint8Array[];
  private readonly filtered: boolean;
  private readonly bpp: number;
  private filled = 0;
  /** The previous row, unfiltered (zeros before the first, as the filters have it). */
  private readonly prev: Uint8Array;

  constructor(
    h: Header,
    private readonly rb: number,
    rows: number,
  ) {
    this.out = new Uint8Array(rows * (rb + 1));
    this.prev = new Uint8Array(rb);
    this.filtered = h.colourType !== 3 && h.depth >= 8;
    this.bpp = filterDistance(h);
    this.trial = this.filtered ? [0, 1, 2, 3, 4].map(() => new Uint8Array(rb + 1)) : [];
  }

  /** Adds `rows` rows of rb bytes each from `band`. */
  push(band: Uint8Array, rows: number): void {
    const { rb, out } = this;
    for (let r = 0; r < rows; r++) {
      const row = band.subarray(r * rb, (r + 1) * rb);
      if (this.filtered) {
        out.set(this.best(row, this.prev), this.filled);
        this.prev.set(row);
      } else {
        out[this.filled] = 0;
        out.set(row, this.filled + 1);
      }
      this.filled += rb + 1;
    }
  }

  /** The whole zlib stream, in pieces of at most MAX_DATA_CHUNK bytes. */
  finish(): Uint8Array[] {
    return split(zlibSync(this.out, { level: LEVEL }));
  }

  /** The row filtered by each of the five filters; the one with the least sum. */
  private best(row: Uint8Array, up: Uint8Array): Uint8Array {
    const { rb, bpp, trial } = this;
    const [none, sub, upf, avg, pa] = trial;
    none[0] = 0;
    sub[0] = 1;
    upf[0] = 2;
    avg[0] = 3;
    pa[0] = 4;
    for (let i = 0; i < rb; i++) {
      const a = i >= bpp ? row[i - bpp] : 0;
      const b = up[i];
      const c = i >= bpp ? up[i - bpp] : 0;
      const x = row[i];
      none[i + 1] = x;
      sub[i + 1] = x - a;
      upf[i + 1] = x - b;
      avg[i + 1] = x - ((a + b) >> 1);
      pa[i + 1] = x - paeth(a, b, c);
    }
    let best = none;
    let bestSum = Infinity;
    for (const t of trial) {
      let sum = 0;
      for (let i = 1; i <= rb && sum < bestSum; i++) {
        const v = t[i];
        sum += v < 128 ? v : 256 - v;
      }
      if (sum < bestSum) {
        bestSum = sum;
        best = t;
      }
    }
    return best;
  }
}

/** The zlib stream of a single row `row` (filter none): a 1×1 frame's pixel. */
export function tinyStream(row: Uint8Array): Uint8Array[] {
  const raw = new Uint8Array(row.length + 1);
  raw.set(row, 1);
  return [zlibSync(raw, { level: LEVEL })];
}

function split(stream: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < stream.length; at += MAX_DATA_CHUNK) out.push(stream.subarray(at, at + MAX_DATA_CHUNK));
  return out;
}
