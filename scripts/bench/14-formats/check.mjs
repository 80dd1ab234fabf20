// Part 14's check of the outputs, once before timing: each decoded by an independent decoder
// (pngjs, omggif) and compared with the input's pixels mirrored (the flip) or as they are (the
// reference), sample for sample. Throws on any difference.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');
const { GifReader } = require('omggif');

/** Throws unless `flipped` is `input` mirrored and `same` is `input`, pixel for pixel. */
export function check(kind, input, flipped, same) {
  const read = kind === 'png' ? pngPixels : gifFrames;
  const a = read(input);
  const f = read(flipped);
  const s = read(same);
  if (f.length !== a.length || s.length !== a.length) throw new Error(`${kind}: ${a.length} images in, ${f.length} and ${s.length} out`);
  a.forEach((img, n) => {
    const { width, height, bpp, data } = img;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let k = 0; k < bpp; k++) {
          const v = data[(y * width + x) * bpp + k];
          if (f[n].data[(y * width + (width - 1 - x)) * bpp + k] !== v) throw new Error(`${kind}: image ${n + 1}, the flip differs at (${x}, ${y})`);
          if (s[n].data[(y * width + x) * bpp + k] !== v) throw new Error(`${kind}: image ${n + 1}, the reference differs at (${x}, ${y})`);
        }
      }
    }
  });
}

/** The PNG's samples as 16-bit RGBA bytes (pngjs keeps all 16 bits with skipRescale). */
function pngPixels(bytes) {
  const png = PNG.sync.read(Buffer.from(bytes), { skipRescale: true });
  return [{ width: png.width, height: png.height, bpp: 4, data: png.data }];
}

/** Each frame as RGBA (every frame covers the screen with its own palette, none transparent). */
function gifFrames(bytes) {
  const r = new GifReader(bytes);
  return Array.from({ length: r.numFrames() }, (_, i) => {
    const data = new Uint8Array(r.width * r.height * 4);
    r.decodeAndBlitFrameRGBA(i, data);
    return { width: r.width, height: r.height, bpp: 4, data };
  });
}
