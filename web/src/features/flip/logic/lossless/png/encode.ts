// Output rows gathered, filtered and deflated. The filter of each row is chosen as libpng does
// by default: the one whose bytes, read as signed, sum to the least in absolute value; palette
// images and those under 8 bits are not filtered (libpng's choice too: filters work on bytes,
// not on indices or packed pixels, and mostly make those larger). A small image (where a
// few bytes are a large part of the file) is also tried with each single filter for every row,
// and the smallest result kept.
//
// Deflate is the platform's own (CompressionStream, zlib in browsers and Node): about three times
// faster than fflate's and some 7 % smaller on photographs. Where it is missing, fflate's
// one-shot compressor; not its streaming one, which (0.8.3) can write back-references to before
// the start of the data (fflate issue #260, open), a stream that decoders refuse. A large image
// is filtered and compressed band by band as it is rearranged; a small one (or one with no
// CompressionStream here) is held whole.
import { zlibSync } from 'fflate';
import { filterDistance, type Header } from './header';
import { filterInto, filterRows, type Strategy } from './filters';

// fflate's level where there is no CompressionStream (which has zlib's default, 6).
const LEVEL = 6;
// Images whose rows take at most this many bytes are tried with every filter choice.
const TRY_ALL = 1 << 20;
// An IDAT (or fdAT) holds at most this many bytes of the stream, so no chunk is huge.
export const MAX_DATA_CHUNK = 1 << 20;

/** The rows of one image, given band by band, as a zlib stream. */
export interface RowEncoder {
  /** Adds `rows` rows of rb bytes each from `band` (which the caller may then reuse). */
  push(band: Uint8Array, rows: number): void | Promise<void>;
  /** The whole zlib stream, in pieces of at most MAX_DATA_CHUNK bytes. */
  finish(): Promise<Uint8Array[]>;
}

export function rowEncoder(h: Header, rb: number, height: number): RowEncoder {
  const usual: Strategy = h.colourType !== 3 && h.depth >= 8 ? 'adaptive' : 0;
  const large = height * (rb + 1) > TRY_ALL;
  return large && typeof CompressionStream !== 'undefined' ? new Streamed(h, rb, usual) : new Whole(h, rb, height, usual, large);
}

/** Rows filtered as they come and compressed on the way: no copy of the whole image is held. */
class Streamed implements RowEncoder {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array<ArrayBuffer>>;
  private readonly result: Promise<ArrayBuffer>;
  private readonly prev: Uint8Array;
  private readonly bpp: number;

  constructor(
    h: Header,
    private readonly rb: number,
    private readonly strategy: Strategy,
  ) {
    const stream = new CompressionStream('deflate');
    this.writer = stream.writable.getWriter();
    this.result = new Response(stream.readable).arrayBuffer();
    this.prev = new Uint8Array(rb);
    this.bpp = filterDistance(h);
  }

  async push(band: Uint8Array, rows: number): Promise<void> {
    const { rb } = this;
    // A new buffer for each band: the stream may hold on to what it is given.
    const out = new Uint8Array(rows * (rb + 1));
    for (let r = 0; r < rows; r++) {
      const row = band.subarray(r * rb, (r + 1) * rb);
      filterInto(row, this.prev, this.bpp, this.strategy, out.subarray(r * (rb + 1), (r + 1) * (rb + 1)));
      this.prev.set(row);
    }
    await this.writer.write(out);
  }

  async finish(): Promise<Uint8Array[]> {
    await this.writer.close();
    return split(new Uint8Array(await this.result));
  }
}

/** Rows held whole: a small image, tried with every filter choice; or no CompressionStream here. */
class Whole implements RowEncoder {
  /** Each row's filter byte, then its raw bytes. */
  private readonly rows: Uint8Array<ArrayBuffer>;
  private filled = 0;

  constructor(
    private readonly h: Header,
    private readonly rb: number,
    height: number,
    private readonly usual: Strategy,
    private readonly large: boolean,
  ) {
    this.rows = new Uint8Array(height * (rb + 1));
  }

  push(band: Uint8Array, rows: number): void {
    for (let r = 0; r < rows; r++) {
      this.rows.set(band.subarray(r * this.rb, (r + 1) * this.rb), this.filled + 1);
      this.filled += this.rb + 1;
    }
  }

  async finish(): Promise<Uint8Array[]> {
    const { h, rows, usual } = this;
    if (this.large) {
      filterRows(rows, this.rb, filterDistance(h), usual);
      return split(await deflate(rows));
    }
    let best: Uint8Array | undefined;
    for (const s of [usual, ...([0, 1, 2, 3, 4, 'adaptive'] as const).filter((s) => s !== usual)]) {
      const copy = rows.slice();
      filterRows(copy, this.rb, filterDistance(h), s);
      const z = await deflate(copy);
      if (!best || z.length < best.length) best = z;
    }
    return split(best!);
  }
}

/** The zlib stream of a single row `row` (filter none): a 1×1 frame's pixel. */
export async function tinyStream(row: Uint8Array): Promise<Uint8Array[]> {
  const raw = new Uint8Array(row.length + 1);
  raw.set(row, 1);
  return [await deflate(raw)];
}

/** The zlib stream of `data`. */
async function deflate(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  if (typeof CompressionStream === 'undefined') return zlibSync(data, { level: LEVEL });
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const out = new Response(stream.readable).arrayBuffer();
  // In pieces: a stream may hold on to what it is given until it has compressed it.
  for (let at = 0; at < data.length; at += MAX_DATA_CHUNK) await writer.write(data.subarray(at, at + MAX_DATA_CHUNK));
  await writer.close();
  return new Uint8Array(await out);
}

function split(stream: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < stream.length; at += MAX_DATA_CHUNK) out.push(stream.subarray(at, at + MAX_DATA_CHUNK));
  return out;
}
