// Part 14 (issue 28): the flipper's lossless PNG and GIF rewriters, bundled and run in Node as
// part 12 does, on a 24 MP 16-bit RGBA PNG and a 200-frame 480×270 GIF made at run time
// (inputs.mjs). Per file, in alternating rounds after a warm-up:
// - flip: the page's call (flipPngLossless / flipGifLossless), a horizontal mirror ('r0m');
// - reference, "a plain decode + encode of the same file": the same call with the identity
//   transform ('r0'): the same structure parse, inflate + unfilter (PNG) or LZW decode of every
//   frame (GIF), the same filter choice + deflate or LZW encode, with the same settings, and no
//   rearrangement. So the ratio is what the flip itself costs over the rewriter's own decode and
//   encode; another codec (pngjs, the canvas) would measure a different implementation instead.
// - phases, to show where the time goes: PNG: parse + inflate + unfilter alone, then the
//   encoder's filter choice over the decoded rows alone (the rest of the whole call is deflate,
//   the row copies and the chunks); GIF: parse + LZW decode of every
//   frame alone, and LZW encode of every frame alone.
// Every output is checked once (decoded by pngjs / omggif and compared with the input mirrored).
// Peak memory: each call once more in a fresh Node process (this file with --peak): its peak RSS
// (VmHWM) and how far that rose during the call, over the process with the bundle loaded and
// the file read, and the peak of its array buffers (sampled while the call yields, so for the
// GIF, which does not, only before and after it). A benchmark, not a test: a missed goal prints a
// WARNING; it exits non-zero only when something fails or an output is wrong.
// Env: BENCH_FORMATS_ROUNDS (5).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '../../..');
const lossless = join(root, 'web/src/features/flip/logic/lossless');
const MAX_PIXELS = 1e9; // no refusal: the page's own bound is not what is measured here

/** The page's calls, as the page's build bundles them into one chunk (see part 12). */
async function bundle(dir) {
  const { build } = await import('vite');
  const entry = join(dir, 'entry.ts');
  const from = (p) => JSON.stringify(join(lossless, p));
  writeFileSync(
    entry,
    [
      `export { flipPngLossless } from ${from('png/index.ts')};`,
      `export { readStructure } from ${from('png/structure.ts')};`,
      `export { decodeRaster } from ${from('png/raster.ts')};`,
      `export { filterInto } from ${from('png/filters.ts')};`,
      `export { filterDistance, rowBytes } from ${from('png/header.ts')};`,
      `export { flipGifLossless } from ${from('gif/index.ts')};`,
      `export { parseGif } from ${from('gif/blocks.ts')};`,
      `export { decodeLzw, LzwEncoder } from ${from('gif/lzw.ts')};`,
      `export { parseTransformKey } from ${JSON.stringify(join(root, 'web/src/lib/image/transform.ts'))};`,
    ].join('\n'),
  );
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: { outDir: join(dir, 'out'), emptyOutDir: true, minify: false, lib: { entry, formats: ['es'], fileName: () => 'formats.mjs' } },
  });
  return join(dir, 'out', 'formats.mjs');
}

/** The whole call, as the worker makes it. */
async function call(m, kind, bytes, key) {
  const t = m.parseTransformKey(key);
  const r = kind === 'png' ? await m.flipPngLossless(bytes, t, { maxPixels: MAX_PIXELS }) : m.flipGifLossless(bytes, t, undefined, { maxPixels: MAX_PIXELS });
  if (!r.ok) throw new Error(`${kind} ${key}: ${r.reason}: ${r.detail}`);
  return r.bytes;
}

/** The phases of a call that can be timed apart with the rewriters' own modules. */
function phases(m, kind, bytes) {
  const t0 = performance.now();
  if (kind === 'png') {
    const s = m.readStructure(bytes);
    const im = s.images[0];
    const raster = m.decodeRaster(s.header, im.parts, im.rect.width, im.rect.height);
    const t1 = performance.now();
    // The encoder's filter choice, row by row as it makes it (libpng's heuristic), without deflate.
    const rb = m.rowBytes(s.header, im.rect.width);
    const out = new Uint8Array(rb + 1);
    let up = new Uint8Array(rb);
    for (let y = 0; y < im.rect.height; y++) {
      const row = raster.data.subarray(raster.offset + y * raster.stride, raster.offset + y * raster.stride + rb);
      m.filterInto(row, up, m.filterDistance(s.header), 'adaptive', out);
      up = row;
    }
    return { decode: t1 - t0, filter: performance.now() - t1 };
  }
  const gif = m.parseGif(bytes, MAX_PIXELS);
  const frames = gif.blocks.filter((b) => b.kind !== 'extensions').map((im) => {
    const indices = new Uint8Array(im.width * im.height);
    const d = m.decodeLzw(bytes, im.dataAt, im.minCodeSize, indices);
    if ('error' in d) throw new Error(d.error);
    return { indices, minCodeSize: im.minCodeSize };
  });
  const t1 = performance.now();
  const encoder = new m.LzwEncoder();
  for (const f of frames) encoder.encode(f.indices, f.minCodeSize);
  return { decode: t1 - t0, encode: performance.now() - t1 };
}

/** One call in this (fresh) process: prints its peak RSS and the rise during the call, in MB. */
async function peak([bundlePath, file, kind, key]) {
  const m = await import(pathToFileURL(bundlePath).href);
  const bytes = new Uint8Array(readFileSync(file));
  const before = highWater();
  let buffers = process.memoryUsage().arrayBuffers;
  // Samples the array buffers whenever the call yields (the PNG's deflate is asynchronous).
  const timer = setInterval(() => (buffers = Math.max(buffers, process.memoryUsage().arrayBuffers)), 5);
  await call(m, kind, bytes, key);
  clearInterval(timer);
  buffers = Math.max(buffers, process.memoryUsage().arrayBuffers);
  const after = highWater();
  console.log(JSON.stringify({ peak: after, rise: after - before, buffers: buffers / 2 ** 20 }));
}

/**
 * This process's peak RSS so far, in MB: Linux's VmHWM, which starts afresh at exec (unlike
 * getrusage's maxrss, which a child started by a big parent inherits from it).
 */
function highWater() {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!m) throw new Error('no VmHWM in /proc/self/status (the peak is measured on Linux)');
  return Number(m[1]) / 1024;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${Math.round(x)} ms`;
const spread = (xs) => `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;

async function main() {
  const rounds = Number(process.env.BENCH_FORMATS_ROUNDS || 5);
  const goal = 1.2;
  const dir = mkdtempSync(join(tmpdir(), 'bench-formats-'));
  try {
    const bundlePath = await bundle(dir);
    const m = await import(pathToFileURL(bundlePath).href);
    const { makePng, makeGif, PNG_SIZE, GIF_SIZE } = await import('./inputs.mjs');
    const t0 = performance.now();
    const files = { png: makePng(), gif: makeGif() };
    const made = (performance.now() - t0) / 1000;
    for (const [kind, bytes] of Object.entries(files)) writeFileSync(join(dir, `input.${kind}`), bytes);
    console.log(
      `bench-formats: Node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')};` +
        ` a ${PNG_SIZE.width}×${PNG_SIZE.height} 16-bit RGBA PNG of ${(files.png.length / 1e6).toFixed(1)} MB and a ${GIF_SIZE.frames}-frame` +
        ` ${GIF_SIZE.width}×${GIF_SIZE.height} GIF (a palette per frame) of ${(files.gif.length / 1e6).toFixed(1)} MB, made in ${made.toFixed(1)} s;` +
        ` ${rounds} rounds after a warm-up`,
    );
    const { check } = await import('./check.mjs');
    for (const [kind, bytes] of Object.entries(files)) check(kind, bytes, await call(m, kind, bytes, 'r0m'), await call(m, kind, bytes, 'r0'));

    const rows = [];
    for (const [kind, bytes] of Object.entries(files)) {
      const flip = [];
      const ref = [];
      const ph = [];
      for (let i = 0; i <= rounds; i++) {
        // The order alternates, so neither side always runs just after the other's garbage.
        const timed = async (key) => {
          const s = performance.now();
          await call(m, kind, bytes, key);
          return performance.now() - s;
        };
        let f, r;
        if (i % 2) [f, r] = [await timed('r0m'), await timed('r0')];
        else [r, f] = [await timed('r0'), await timed('r0m')];
        const p = phases(m, kind, bytes);
        const extra = kind === 'png' ? `parse + inflate + unfilter ${ms(p.decode)}, filter choice ${ms(p.filter)}` : `LZW decode ${ms(p.decode)}, LZW encode ${ms(p.encode)}`;
        console.log(`  ${kind} ${i ? `round ${i}` : 'warm-up'}: flip ${ms(f)}, decode + encode ${ms(r)}, ratio ${(f / r).toFixed(2)}; ${extra}`);
        if (!i) continue;
        flip.push(f);
        ref.push(r);
        ph.push(p);
      }
      const peaks = {};
      for (const key of ['r0m', 'r0']) {
        const out = execFileSync(process.execPath, [here, '--peak', bundlePath, join(dir, `input.${kind}`), kind, key], { encoding: 'utf8', maxBuffer: 1 << 20 });
        peaks[key] = JSON.parse(out.trim().split('\n').pop());
      }
      rows.push({ kind, flip, ref, ph, peaks, ratio: Number((median(flip) / median(ref)).toFixed(2)) });
    }

    console.log(`\nbench-formats: load average now ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log('file | flip median (min–max) | decode + encode median (min–max) | ratio | goal | result | peak RSS flip / reference (rise in the call)');
    for (const r of rows) {
      const mem = (p) => `${Math.round(p.peak)} MB (+${Math.round(p.rise)})`;
      const name = r.kind === 'png' ? '24 MP 16-bit PNG' : '200-frame GIF';
      console.log(`${name} | ${spread(r.flip)} | ${spread(r.ref)} | ${r.ratio.toFixed(2)} | ≤ ${goal} | ${r.ratio <= goal ? 'PASS' : 'MISS'} | ${mem(r.peaks.r0m)} / ${mem(r.peaks.r0)}`);
    }
    for (const r of rows) {
      const d = median(r.ph.map((p) => p.decode));
      const w = median(r.ref);
      if (r.kind === 'png') {
        const f = median(r.ph.map((p) => p.filter));
        console.log(`png phases (medians): of the decode + encode's ${ms(w)}, parse + inflate + unfilter ${ms(d)}, filter choice ${ms(f)}, deflate and the rest ${ms(w - d - f)}`);
      }
      else console.log(`gif phases (medians): parse + LZW decode ${ms(d)}, LZW encode ${ms(median(r.ph.map((p) => p.encode)))}, of the decode + encode's ${ms(w)}`);
      if (r.ratio > goal) console.log(`bench-formats: WARNING: the ${r.kind.toUpperCase()} flip takes ${r.ratio}× its decode + encode, over the goal of ${goal}×`);
    }
  } finally {
    if (!process.env.BENCH_FORMATS_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--peak') await peak(process.argv.slice(3));
else await main();
