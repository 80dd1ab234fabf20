// The colour-indexing transform: an image of at most 256 colours is stored as indices into a
// palette, several indices to a pixel when there are at most 16 colours (pixel bundling).
import { subtractPixels } from './predictor';

/** The image's colours, sorted, or undefined past 256. */
export function paletteOf(argb: Uint32Array): Uint32Array | undefined {
  const seen = new Set<number>();
  for (let i = 0; i < argb.length; i++) {
    if (i > 0 && argb[i] === argb[i - 1]) continue;
    seen.add(argb[i]);
    if (seen.size > 256) return undefined;
  }
  return Uint32Array.from(seen).sort();
}

/** Each entry less the one before it, channel by channel: the colour table as it is stored. */
export function paletteDeltas(palette: Uint32Array): Uint32Array {
  return palette.map((p, i) => (i === 0 ? p : subtractPixels(p, palette[i - 1])));
}

/** How many indices go into one pixel's green, as a power of two. */
export function bundleBits(size: number): number {
  return size <= 2 ? 3 : size <= 4 ? 2 : size <= 16 ? 1 : 0;
}

/** The image as palette indices, bundled: width becomes ceil(width / 2^bits). */
export function indexImage(argb: Uint32Array, width: number, height: number, palette: Uint32Array): { packed: Uint32Array; packedWidth: number } {
  const index = new Map<number, number>();
  palette.forEach((p, i) => index.set(p, i));
  const bits = bundleBits(palette.length);
  const perPixel = 1 << bits;
  const bitsPerIndex = 8 >> bits;
  const packedWidth = Math.ceil(width / perPixel);
  const packed = new Uint32Array(packedWidth * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = index.get(argb[y * width + x])!;
      packed[y * packedWidth + (x >> bits)] |= i << (8 + (x & (perPixel - 1)) * bitsPerIndex);
    }
  }
  for (let i = 0; i < packed.length; i++) packed[i] = (packed[i] | 0xff000000) >>> 0;
  return { packed, packedWidth };
}
