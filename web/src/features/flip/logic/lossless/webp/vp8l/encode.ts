// A VP8L (lossless WebP) encoder: a palette (colour indexing) for images of few colours,
// otherwise subtract-green and predictor transforms; then LZ77 with a colour cache and one set
// of canonical prefix codes for the whole image. libwebp compresses better (cross-colour
// transform, several code groups, entropy-based choices); this one aims at being exact,
// small enough for a flipped image to stay near its input's size, and short.
import { BitWriter } from './bitWriter';
import { CACHE, COPY, prefixOf, tokenize } from './backrefs';
import { writeCode, type PrefixCode } from './huffman';
import { indexImage, paletteDeltas, paletteOf } from './palette';
import { predictorTransform } from './predictor';

const SIGNATURE = 0x2f;
const MAX_SIZE = 1 << 14;
const PREDICTOR_BITS = 4;
const CACHE_BITS = 10;
const PREDICTOR = 0;
const SUBTRACT_GREEN = 2;
const COLOR_INDEXING = 3;

type CacheChoice = NonNullable<Vp8lOptions['colourCache']>;

/** ARGB pixels (one 32-bit word each, alpha in the top byte) from RGBA bytes. */
export function argbFromRgba(rgba: Uint8Array | Uint8ClampedArray): Uint32Array {
  const out = new Uint32Array(rgba.length / 4);
  for (let i = 0, j = 0; i < out.length; i++, j += 4) out[i] = ((rgba[j + 3] << 24) | (rgba[j] << 16) | (rgba[j + 1] << 8) | rgba[j + 2]) >>> 0;
  return out;
}

/** The VP8L bitstream (a VP8L chunk's payload) of width × height ARGB pixels. */
/** Which encodings to try; the smallest is kept. Tests narrow it to check each path. */
export interface Vp8lOptions {
  palette?: boolean;
  colourCache?: 'try' | 'always' | 'never';
}

export function encodeVp8l(pixels: Uint32Array, width: number, height: number, options: Vp8lOptions = {}): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_SIZE || height > MAX_SIZE) {
    throw new RangeError(`VP8L holds 1 to ${MAX_SIZE} pixels a side, not ${width}×${height}`);
  }
  if (pixels.length !== width * height) throw new RangeError(`${pixels.length} pixels are not ${width}×${height}`);
  const alpha = pixels.some((p) => p >>> 24 !== 0xff);
  const cache = options.colourCache ?? 'try';
  const predicted = encodePredicted(pixels, width, height, alpha, cache);
  // Few colours: indices into a palette usually compress much better; both are tried.
  const palette = options.palette === false ? undefined : paletteOf(pixels);
  const indexed = palette ? encodeIndexed(pixels, width, height, alpha, palette, cache) : undefined;
  return indexed && indexed.length < predicted.length ? indexed : predicted;
}

function header(w: BitWriter, width: number, height: number, alpha: boolean): void {
  w.write(8, SIGNATURE);
  w.write(14, width - 1);
  w.write(14, height - 1);
  w.write(1, alpha ? 1 : 0);
  w.write(3, 0);
}

function encodePredicted(pixels: Uint32Array, width: number, height: number, alpha: boolean, cache: CacheChoice): Uint8Array {
  const w = new BitWriter(pixels.length);
  header(w, width, height, alpha);
  // Subtract green: red and blue usually follow green, so what remains is small.
  const argb = new Uint32Array(pixels.length);
  for (let i = 0; i < argb.length; i++) {
    const p = pixels[i];
    const g = (p >>> 8) & 0xff;
    argb[i] = ((p & 0xff00ff00) | ((((p >>> 16) - g) & 0xff) << 16) | ((p - g) & 0xff)) >>> 0;
  }
  w.write(1, 1);
  w.write(2, SUBTRACT_GREEN);

  const { residuals, modes, modesWidth } = predictorTransform(argb, width, height, PREDICTOR_BITS);
  w.write(1, 1);
  w.write(2, PREDICTOR);
  w.write(3, PREDICTOR_BITS - 2);
  writeImage(w, modes, modesWidth, 0, false);
  w.write(1, 0);

  return finishMain(w, residuals, width, cache);
}

function encodeIndexed(pixels: Uint32Array, width: number, height: number, alpha: boolean, palette: Uint32Array, cache: CacheChoice): Uint8Array {
  const w = new BitWriter(pixels.length / 2);
  header(w, width, height, alpha);
  w.write(1, 1);
  w.write(2, COLOR_INDEXING);
  w.write(8, palette.length - 1);
  writeImage(w, paletteDeltas(palette), palette.length, 0, false);
  w.write(1, 0);
  const { packed, packedWidth } = indexImage(pixels, width, height, palette);
  return finishMain(w, packed, packedWidth, cache);
}

/** The main image, with a colour cache or without, whichever is smaller: it helps little on most images, and costs on some. */
function finishMain(w: BitWriter, argb: Uint32Array, width: number, cache: CacheChoice): Uint8Array {
  const cached = cache === 'always' || (cache === 'try' && argb.length > 64) ? w.fork() : undefined;
  if (cached) writeImage(cached, argb, width, CACHE_BITS, true);
  if (cache === 'always') return cached!.finish().slice();
  writeImage(w, argb, width, 0, true);
  return cached && cached.length < w.length ? cached.finish().slice() : w.finish().slice();
}

/** An entropy-coded image: colour cache size, (for the main image) no meta codes, the five codes, the tokens. */
function writeImage(w: BitWriter, argb: Uint32Array, width: number, cacheBits: number, main: boolean): void {
  const tokens = tokenize(argb, width, cacheBits);
  w.write(1, cacheBits > 0 ? 1 : 0);
  if (cacheBits > 0) w.write(4, cacheBits);
  if (main) w.write(1, 0);

  const green = new Uint32Array(256 + 24 + (cacheBits > 0 ? 1 << cacheBits : 0));
  const red = new Uint32Array(256);
  const blue = new Uint32Array(256);
  const alpha = new Uint32Array(256);
  const distance = new Uint32Array(40);
  for (let t = 0; t < tokens.count; t++) {
    const a = tokens.a[t];
    if (tokens.kind[t] === COPY) {
      green[256 + prefixOf(a).symbol]++;
      distance[prefixOf(tokens.b[t]).symbol]++;
    } else if (tokens.kind[t] === CACHE) {
      green[256 + 24 + a]++;
    } else {
      green[(a >>> 8) & 0xff]++;
      red[(a >>> 16) & 0xff]++;
      blue[a & 0xff]++;
      alpha[a >>> 24]++;
    }
  }
  const codes = [green, red, blue, alpha, distance].map((counts) => writeCode(w, counts));
  const [g, r, b, al, d] = codes;
  const put = (code: PrefixCode, symbol: number) => w.write(code.bits[symbol], code.codes[symbol]);
  for (let t = 0; t < tokens.count; t++) {
    const a = tokens.a[t];
    if (tokens.kind[t] === COPY) {
      const length = prefixOf(a);
      put(g, 256 + length.symbol);
      w.write(length.extraBits, length.extra);
      const dist = prefixOf(tokens.b[t]);
      put(d, dist.symbol);
      // Distance extra bits run to 18: written in two parts, as the writer takes 24 at most.
      w.write(Math.min(dist.extraBits, 12), dist.extra);
      if (dist.extraBits > 12) w.write(dist.extraBits - 12, dist.extra >>> 12);
    } else if (tokens.kind[t] === CACHE) {
      put(g, 256 + 24 + a);
    } else {
      put(g, (a >>> 8) & 0xff);
      put(r, (a >>> 16) & 0xff);
      put(b, a & 0xff);
      put(al, a >>> 24);
    }
  }
}
