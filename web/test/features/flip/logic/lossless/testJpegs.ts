// Test JPEGs made by the tests themselves: a picture drawn here, encoded by libjpeg-turbo's
// cjpeg with the sampling, mode and restart interval asked for, and libjpeg-turbo's own
// jpegtran and djpeg to check against. `make test` installs them (scripts/ensure-tools.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pixels } from '../../../../../src/lib/image/transform';

export type Sampling = '4:4:4' | '4:2:2' | '4:2:0' | 'grey';

export interface JpegOptions {
  width: number;
  height: number;
  sampling: Sampling;
  progressive?: boolean;
  /** Restart markers every this many MCUs. */
  restart?: number;
  quality?: number;
  /** RGB components instead of YCbCr (which the lossless path leaves to re-encoding). */
  rgb?: boolean;
}

const samplingFlags: Record<Sampling, string[]> = {
  '4:4:4': ['-sample', '1x1'],
  '4:2:2': ['-sample', '2x1'],
  '4:2:0': ['-sample', '2x2'],
  grey: ['-grayscale'],
};

function run(tool: string, args: string[], input: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(tool, args, { input, maxBuffer: 1 << 28 }));
}

/**
 * A picture with detail at every scale: gradients, stripes of several widths, a diagonal and
 * some noise, different in each channel, so that every coefficient of every block varies and
 * a block or a sign in the wrong place shows.
 */
export function testPicture(width: number, height: number): Uint8Array {
  const ppm = new Uint8Array(width * height * 3);
  let seed = 12345;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) % 48;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      ppm[i] = (x * 255) / width + (x % 7 < 3 ? 40 : 0) - noise() / 2;
      ppm[i + 1] = (y * 255) / height + ((x + y) % 11 < 4 ? 50 : 0);
      ppm[i + 2] = ((x * y) % 97) * 2 + noise();
    }
  }
  const header = new TextEncoder().encode(`P6 ${width} ${height} 255\n`);
  const out = new Uint8Array(header.length + ppm.length);
  out.set(header);
  out.set(ppm, header.length);
  return out;
}

export function makeJpeg(o: JpegOptions): Uint8Array {
  const args = ['-quality', String(o.quality ?? 85), ...samplingFlags[o.sampling]];
  if (o.progressive) args.push('-progressive');
  if (o.restart) args.push('-restart', `${o.restart}B`);
  if (o.rgb) args.push('-rgb');
  return run('cjpeg', args, testPicture(o.width, o.height));
}

/** jpegtran's arguments for each of our transforms (by transformKey). */
export const jpegtranArgs: Record<string, string[]> = {
  r0: [],
  r0m: ['-flip', 'horizontal'],
  r1: ['-rotate', '90'],
  r1m: ['-transverse'],
  r2: ['-rotate', '180'],
  r2m: ['-flip', 'vertical'],
  r3: ['-rotate', '270'],
  r3m: ['-transpose'],
};

export function jpegtran(jpeg: Uint8Array, args: string[]): Uint8Array {
  return run('jpegtran', ['-optimize', '-copy', 'none', '-trim', ...args], jpeg);
}

/**
 * The pixels libjpeg decodes, as RGBA. Chroma is upsampled by repeating samples (-nosmooth),
 * which commutes with flips; the smooth upsampler does not.
 */
export function djpeg(jpeg: Uint8Array): Pixels {
  const dir = mkdtempSync(join(tmpdir(), 'handy-jpeg-'));
  try {
    const file = join(dir, 'in.jpg');
    writeFileSync(file, jpeg);
    const ppm = run('djpeg', ['-nosmooth', '-pnm', '-rgb', file], new Uint8Array());
    return parsePnm(ppm);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parsePnm(b: Uint8Array): Pixels {
  // "P6 <w> <h> <max>" and one whitespace byte, then the samples.
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(b[i]))) i++;
    let f = '';
    while (!/\s/.test(String.fromCharCode(b[i]))) f += String.fromCharCode(b[i++]);
    fields.push(f);
  }
  i++;
  const [magic, w, h] = [fields[0], Number(fields[1]), Number(fields[2])];
  if (magic !== 'P6') throw new Error(`djpeg wrote ${magic}`);
  const data = new Uint8ClampedArray(w * h * 4);
  for (let p = 0; p < w * h; p++) {
    data[p * 4] = b[i + p * 3]!;
    data[p * 4 + 1] = b[i + p * 3 + 1]!;
    data[p * 4 + 2] = b[i + p * 3 + 2]!;
    data[p * 4 + 3] = 255;
  }
  return { width: w, height: h, data };
}

export function readFile(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}
