// Times the lossless JPEG transform (web/src/features/flip/logic/lossless/jpeg) in Node on a
// photo-like 24-megapixel baseline JPEG: a horizontal flip against a quarter turn (90°
// clockwise), alternated, after a warm-up. The goal (issue 17): the quarter turn within 1.1× the
// flip's time. Each round also times the three phases (read the coefficients, plan, write) on
// their own, to show where a transform spends its time.
//
// The TypeScript is bundled with Vite (a dev dependency) into a temporary directory first, so the
// code timed is the plain JavaScript a browser would run, without a loader in between. The photo
// is encoded by libjpeg-turbo's cjpeg (scripts/tools/ensure-tools.sh installs it): quality 90, 4:2:0.
// Before timing, both outputs are checked against libjpeg-turbo's jpegtran, byte for byte. A
// benchmark, not a test: a missed goal prints a WARNING; it exits non-zero only when something
// fails or an output is wrong. Env: BENCH_LOSSLESS_ROUNDS (9).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const rounds = Number(process.env.BENCH_LOSSLESS_ROUNDS || 9);
const WIDTH = 6000;
const HEIGHT = 4000;
const QUALITY = 90;
const goal = 1.1;

/**
 * The lossless modules and the transforms, bundled into one module as the page's build bundles
 * them into one chunk (across chunks, every use of an imported table or function goes through
 * its module, which would slow the hot loops here and not on the page), and imported.
 */
async function load() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lossless-'));
  const lossless = join(root, 'web/src/features/flip/logic/lossless/jpeg');
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { flipJpegLossless } from ${JSON.stringify(join(lossless, 'index.ts'))};`,
      `export { readCoefficients } from ${JSON.stringify(join(lossless, 'decode.ts'))};`,
      `export { plan } from ${JSON.stringify(join(lossless, 'rearrange.ts'))};`,
      `export { writeJpeg } from ${JSON.stringify(join(lossless, 'encode.ts'))};`,
      `export { parseTransformKey, swapsAxes } from ${JSON.stringify(join(root, 'web/src/lib/image/transform.ts'))};`,
    ].join('\n'),
  );
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      build: { outDir: join(dir, 'out'), emptyOutDir: true, minify: false, lib: { entry, formats: ['es'], fileName: () => 'lossless.mjs' } },
    });
    return await import(pathToFileURL(join(dir, 'out', 'lossless.mjs')).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A photo-like picture as a PPM: broad gradients, soft overlapping discs of colour and grain,
 * so that its blocks have the spread of coefficients (and the file the size, about 1.3 bytes a
 * pixel) of a camera's photo rather than of a flat drawing.
 */
function photoPpm(width, height) {
  const header = new TextEncoder().encode(`P6 ${width} ${height} 255\n`);
  const out = new Uint8Array(header.length + width * height * 3);
  out.set(header);
  const rgb = out.subarray(header.length);
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      rgb[i] = 40 + (150 * x) / width + 30 * Math.sin(y / 90);
      rgb[i + 1] = 60 + (120 * y) / height + 25 * Math.sin((x + y) / 140);
      rgb[i + 2] = 90 + 80 * Math.sin(x / 400) * Math.cos(y / 300);
    }
  }
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
  // Grain, the same in the three channels (as a sensor's luminance noise mostly is).
  for (let i = 0; i < rgb.length; i += 3) {
    const n = (random() - 0.5) * 28;
    for (let c = 0; c < 3; c++) rgb[i + c] = Math.min(255, Math.max(0, rgb[i + c] + n));
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${Math.round(x)} ms`.padStart(7);

const lossless = await load();
const t0 = performance.now();
const photo = new Uint8Array(execFileSync('cjpeg', ['-quality', String(QUALITY), '-sample', '2x2'], { input: photoPpm(WIDTH, HEIGHT), maxBuffer: 1 << 28 }));
console.log(
  `bench-lossless: Node ${process.version}, a ${WIDTH}×${HEIGHT} baseline 4:2:0 JPEG of ${(photo.length / 1e6).toFixed(1)} MB (cjpeg -quality ${QUALITY}, made in ${((performance.now() - t0) / 1000).toFixed(1)} s); ${rounds} rounds after a warm-up; load average ${loadavg()[0].toFixed(2)}`,
);

const transforms = { flip: lossless.parseTransformKey('r0m'), turn: lossless.parseTransformKey('r1') };

/** The whole call, as the page makes it: its wall-clock time, and the process's CPU time meanwhile. */
function whole(t) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const r = lossless.flipJpegLossless(photo, t, 'trim');
  if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, bytes: r.bytes };
}

/** The same work phase by phase (the photo has no EXIF orientation and no colour profile). */
function phases(t) {
  const t0 = performance.now();
  const input = lossless.readCoefficients(photo, { transposed: lossless.swapsAxes(t) });
  const t1 = performance.now();
  const output = lossless.plan(input, t);
  const t2 = performance.now();
  const bytes = lossless.writeJpeg(output, [], photo.length);
  const t3 = performance.now();
  return { decode: t1 - t0, plan: t2 - t1, encode: t3 - t2, bytes };
}

// The same files as jpegtran makes (the lossless tests check this on small images; here on a big one).
const jpegtranArgs = { flip: ['-flip', 'horizontal'], turn: ['-rotate', '90'] };
for (const [name, t] of Object.entries(transforms)) {
  const theirs = execFileSync('jpegtran', ['-optimize', '-copy', 'none', '-trim', ...jpegtranArgs[name]], { input: photo, maxBuffer: 1 << 28 });
  if (!Buffer.from(whole(t).bytes).equals(theirs)) throw new Error(`${name}: the output is not jpegtran's`);
}

// Each round times the two whole calls next to each other, then their phases: a pair under the
// same conditions, on a machine that may be busy with other work.
const results = { flip: [], turn: [] };
for (let i = 0; i <= rounds; i++) {
  const w = Object.fromEntries(Object.entries(transforms).map(([name, t]) => [name, whole(t)]));
  const line = [];
  for (const [name, t] of Object.entries(transforms)) {
    const p = phases(t);
    if (!Buffer.from(w[name].bytes).equals(Buffer.from(p.bytes))) throw new Error(`${name}: the phases wrote other bytes than the whole call`);
    if (i > 0) results[name].push({ ms: w[name].ms, cpu: w[name].cpu, decode: p.decode, plan: p.plan, encode: p.encode });
    line.push(`${name} ${ms(w[name].ms)} (read ${ms(p.decode)}, plan ${ms(p.plan)}, write ${ms(p.encode)})`);
  }
  console.log(`  ${(i === 0 ? 'warm-up' : `round ${i}`).padEnd(8)} ${line.join('   ')}   ratio ${(w.turn.ms / w.flip.ms).toFixed(2)}`);
}

const summary = (name) => {
  const r = results[name];
  const m = (key) => median(r.map((x) => x[key]));
  return { ms: m('ms'), cpu: m('cpu'), decode: m('decode'), plan: m('plan'), encode: m('encode') };
};
const flip = summary('flip');
const turn = summary('turn');
for (const [name, s] of [['horizontal flip', flip], ['quarter turn', turn]]) {
  console.log(`median ${name.padEnd(15)} ${ms(s.ms)}   (read ${ms(s.decode)}, plan ${ms(s.plan)}, write ${ms(s.encode)})`);
}
const ratio = Number((turn.ms / flip.ms).toFixed(2)); // as printed, so that the warning agrees with it
console.log(`quarter turn / flip: ${ratio} (goal ≤ ${goal}); in CPU time ${(turn.cpu / flip.cpu).toFixed(2)}, which other work on the machine disturbs less`);
if (ratio > goal) console.log(`bench-lossless: WARNING: a quarter turn takes ${ratio}× a flip's time, over the goal of ${goal}`);
