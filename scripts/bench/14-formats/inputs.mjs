// The inputs of part 14, made at run time (none is committed) with pure-JavaScript writers, so
// that the bench needs no ImageMagick:
// - a 24-megapixel (6000×4000) 16-bit RGBA PNG written by pngjs: broad gradients, soft discs of
//   colour and grain in the low bits, as a camera's 16-bit export has, so that the filters and
//   deflate see the spread of a photograph rather than a flat drawing (it compresses to about
//   two thirds of its 192 MB of samples); alpha a gentle ramp, never constant;
// - a 200-frame 480×270 GIF written by omggif's GifWriter, every frame a moving plasma (sums of
//   sines with a little noise, as ImageMagick's plasma: fields) with a 256-colour local palette
//   of its own, like the plasma frames of the GIF corpus.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs');
const { GifWriter } = require('omggif');

export const PNG_SIZE = { width: 6000, height: 4000 };
export const GIF_SIZE = { width: 480, height: 270, frames: 200 };

const lcg = (seed) => () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;

/** The PNG's samples, 16-bit RGBA in host order (pngjs takes them so and writes them big-endian). */
function photo16(width, height) {
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      rgb[i] = 40 + (150 * x) / width + 30 * Math.sin(y / 90);
      rgb[i + 1] = 60 + (120 * y) / height + 25 * Math.sin((x + y) / 140);
      rgb[i + 2] = 90 + 80 * Math.sin(x / 400) * Math.cos(y / 300);
    }
  }
  const random = lcg(7);
  for (let d = 0; d < 400; d++) {
    const cx = random() * width;
    const cy = random() * height;
    const r = 20 + random() * 260;
    const colour = [random() * 255, random() * 255, random() * 255];
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, cy + r); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, cx + r); x++) {
        const a = 0.5 * Math.max(0, 1 - Math.hypot(x - cx, y - cy) / r);
        const i = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) rgb[i + c] += a * (colour[c] - rgb[i + c]);
      }
    }
  }
  const out = new Uint16Array(width * height * 4);
  for (let p = 0, i = 0; p < width * height; p++, i += 3) {
    // Grain: the same in the three channels (luminance noise), finer than an 8-bit step.
    const n = (random() - 0.5) * 7;
    for (let c = 0; c < 3; c++) out[p * 4 + c] = Math.min(65535, Math.max(0, Math.round((rgb[i + c] + n) * 257)));
    out[p * 4 + 3] = 65535 - ((p % width) * 8) - (Math.floor(p / width) * 2);
  }
  return out;
}

/** The PNG file: 16-bit RGBA, pngjs's adaptive filters, zlib level 6. */
export function makePng() {
  const { width, height } = PNG_SIZE;
  const samples = photo16(width, height);
  return new Uint8Array(
    PNG.sync.write(
      { width, height, data: Buffer.from(samples.buffer) },
      { colorType: 6, inputColorType: 6, bitDepth: 16, inputHasAlpha: true, deflateLevel: 6 },
    ),
  );
}

/** The GIF file: every frame the whole screen, its own 256-colour table, 40 ms, looping. */
export function makeGif() {
  const { width, height, frames } = GIF_SIZE;
  const buf = new Uint8Array(frames * width * height * 2 + (1 << 20));
  const gif = new GifWriter(buf, width, height, { loop: 0 });
  const random = lcg(11);
  const indices = new Uint8Array(width * height);
  for (let f = 0; f < frames; f++) {
    const palette = [];
    for (let i = 0; i < 256; i++) {
      const r = 128 + 127 * Math.sin((i / 256) * 2 * Math.PI + f / 20);
      const g = 128 + 127 * Math.sin((i / 256) * 4 * Math.PI + f / 13 + 2);
      const b = 128 + 127 * Math.sin((i / 256) * 6 * Math.PI + f / 7 + 4);
      palette.push((Math.round(r) << 16) | (Math.round(g) << 8) | Math.round(b));
    }
    const t = f / 8;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const v =
          Math.sin(x / 23 + t) + Math.sin(y / 17 - t) + Math.sin((x + y) / 31 + t / 2) + Math.sin(Math.hypot(x - 240, y - 135) / 19 - t);
        indices[y * width + x] = Math.max(0, Math.min(255, Math.round(((v + 4) / 8) * 255 + (random() - 0.5) * 12)));
      }
    }
    gif.addFrame(0, 0, width, height, indices, { palette, delay: 4 });
  }
  return buf.slice(0, gif.end());
}
