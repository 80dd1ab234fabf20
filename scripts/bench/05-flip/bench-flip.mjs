#!/usr/bin/env node
// The image flipper's benchmark, in headless Chromium (docs/performance.md):
//
//   node scripts/bench/05-flip/bench-flip.mjs http://127.0.0.1:PORT
//
// A 24-megapixel photo-like JPEG (6000×4000, quality 0.92) is made in the page, then, in
// alternating rounds:
// - re-encode, end to end: the file goes into /flip-image through its file input, the test
//   waits for the image to appear, chooses JPEG output (so that it is decoded, flipped and
//   encoded again), presses H and clicks Download; the clock stops when the page hands the
//   flipped JPEG blob to the download link. Long tasks on the main thread are recorded meanwhile.
// - floor: the same bytes decoded and encoded again (createImageBitmap, OffscreenCanvas,
//   convertToBlob at the same quality) in a bare worker: the least any browser flipper can do;
//   and decoded, drawn flipped and encoded: what a flip costs any browser flipper that re-encodes.
// - lossless: the same as the first with the output left as the original's, so the page flips
//   the JPEG losslessly; timed from the Download click to the blob.
// Prints the medians and two ratios: re-encode end to end / floor (goal ≤ 1.2) and decode + flip
// + encode / lossless (goal ≥ 3), and the longest main-thread task (goal ≤ 50 ms), with a
// WARNING on a miss. A benchmark, not a test: it exits non-zero only when the browser or the page
// fails. Env: BENCH_FLIP_ROUNDS (5), CHROME_PATH.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const browserConfig = JSON.parse(readFileSync(join(root, 'scripts/tools/chromium.json'), 'utf8'));
const base = (process.argv[2] || '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  console.error('usage: node scripts/bench/05-flip/bench-flip.mjs http://127.0.0.1:PORT');
  process.exit(2);
}
const rounds = Number(process.env.BENCH_FLIP_ROUNDS || 5);
const WIDTH = 6000;
const HEIGHT = 4000;
const QUALITY = 0.92; // the flipper's default
const goals = { ratio: 1.2, lossless: 3, longTask: 50 };

// Runs before the page's own scripts: records when a blob is handed to a link (the download) and
// every long task on the main thread.
function instrument() {
  window.__bench = { blobs: [], longTasks: [] };
  const create = URL.createObjectURL;
  URL.createObjectURL = function (obj) {
    if (obj instanceof Blob) window.__bench.blobs.push({ at: performance.now(), type: obj.type, size: obj.size });
    return create.call(this, obj);
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push({ at: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
}

// Makes the test photo in the page and keeps it as window.__photo: gradients, shapes and grain,
// so that it compresses and decodes like a photograph rather than a flat picture.
async function makePhoto({ width, height, quality }) {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const sky = ctx.createLinearGradient(0, 0, width, height);
  sky.addColorStop(0, '#1d4e89');
  sky.addColorStop(0.5, '#f2a541');
  sky.addColorStop(1, '#2e7d32');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < 1500; i++) {
    ctx.fillStyle = `hsla(${random() * 360}, 60%, ${30 + random() * 40}%, 0.5)`;
    ctx.beginPath();
    ctx.arc(random() * width, random() * height, 10 + random() * 300, 0, 2 * Math.PI);
    ctx.fill();
  }
  // Grain, in tiles: a 24 MP ImageData at once would be 96 MB of script memory.
  const tile = 500;
  const grain = ctx.createImageData(tile, tile);
  for (let y = 0; y < height; y += tile) {
    for (let x = 0; x < width; x += tile) {
      const src = ctx.getImageData(x, y, tile, tile).data;
      for (let i = 0; i < src.length; i += 4) {
        const n = (random() - 0.5) * 24;
        grain.data[i] = src[i] + n;
        grain.data[i + 1] = src[i + 1] + n;
        grain.data[i + 2] = src[i + 2] + n;
        grain.data[i + 3] = 255;
      }
      ctx.putImageData(grain, x, y);
    }
  }
  window.__photo = await canvas.convertToBlob({ type: 'image/jpeg', quality });
  return window.__photo.size;
}

// Decode + encode alone, in a bare worker: the floor; then decode + flip + encode.
async function floor(quality) {
  const source = `const job = async (blob, quality, flip) => {
    const t0 = performance.now();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (flip) ctx.setTransform(-1, 0, 0, 1, bitmap.width, 0);
    ctx.drawImage(bitmap, 0, 0);
    bitmap.close();
    const out = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    return performance.now() - t0;
  };
  onmessage = async (e) => {
    const ms = await job(e.data.blob, e.data.quality, false);
    const flipped = await job(e.data.blob, e.data.quality, true);
    postMessage({ ms, flipped });
  };`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  // The worker's start-up is not the flip's cost: time the job from inside it.
  const result = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage({ blob: window.__photo, quality });
  });
  worker.terminate();
  URL.revokeObjectURL(url);
  return result;
}

// The whole flip as a visitor does it: file in, H, Download, blob out; with JPEG output chosen
// (re-encode) or the original's (lossless).
async function endToEnd(output) {
  const input = document.querySelector('input[type="file"]');
  const button = () => [...document.querySelectorAll('.flip-actions button, button')].find((b) => b.getAttribute('aria-keyshortcuts') === 'Control+S');
  const until = (test) =>
    new Promise((resolve, reject) => {
      const limit = performance.now() + 120_000;
      const poll = () => {
        const value = test();
        if (value) resolve(value);
        else if (performance.now() > limit) reject(new Error('timed out'));
        else setTimeout(poll, 5);
      };
      poll();
    });
  const file = new File([window.__photo], 'photo.jpg', { type: 'image/jpeg' });
  const files = new DataTransfer();
  files.items.add(file);
  window.__bench.blobs.length = 0;
  window.__bench.longTasks.length = 0;
  const t0 = performance.now();
  input.files = files.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await until(() => document.querySelector('.flip-item'));
  const opened = performance.now() - t0;
  const format = document.querySelector('#flip-format');
  format.value = output;
  format.dispatchEvent(new Event('change', { bubbles: true }));
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', bubbles: true }));
  await until(() => button() && !button().disabled);
  const clicked = performance.now();
  button().click();
  const out = await until(() => window.__bench.blobs.find((b) => b.type === 'image/jpeg'));
  // Long tasks are reported a little after they end.
  await new Promise((r) => setTimeout(r, 100));
  const tasks = window.__bench.longTasks.filter((t) => t.at >= t0);
  return {
    ms: out.at - t0,
    download: out.at - clicked,
    opened,
    size: out.size,
    longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
    longTasks: tasks.length,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${Math.round(x)} ms`;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || browserConfig.path,
  args: browserConfig.flags.filter((f) => !f.startsWith('--headless')),
});
try {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`bench-flip: page error: ${err.message}`));
  const url = `${base}/flip-image`;
  const open = async () => {
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  };
  await open();
  const bytes = await page.evaluate(makePhoto, { width: WIDTH, height: HEIGHT, quality: QUALITY });
  console.log(`bench-flip: ${await browser.version()}, ${WIDTH}×${HEIGHT} JPEG of ${(bytes / 1e6).toFixed(1)} MB made in the page; ${rounds} rounds after a warm-up`);

  // As a data URL, to hand it back to each fresh page.
  const photo = await page.evaluate(
    () => new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsDataURL(window.__photo);
    }),
  );
  const floors = [];
  const ends = [];
  const losslesses = [];
  const run = async (output) => {
    const [download, e] = await Promise.all([page.waitForEvent('download'), page.evaluate(endToEnd, output)]);
    if (download.suggestedFilename() !== 'photo-flipped.jpg') throw new Error(`the download was named ${download.suggestedFilename()}`);
    return e;
  };
  for (let i = 0; i <= rounds; i++) {
    await open();
    // Each page load starts without the photo: hand it over again (not timed).
    // (atob, not fetch: the page's CSP allows no data: connections.)
    const handOver = () =>
      page.evaluate((dataURL) => {
        const bytes = Uint8Array.from(atob(dataURL.slice(dataURL.indexOf(',') + 1)), (c) => c.charCodeAt(0));
        window.__photo = new Blob([bytes], { type: 'image/jpeg' });
      }, photo);
    await handOver();
    const f = await page.evaluate(floor, QUALITY);
    const e = await run('jpeg');
    await open();
    await handOver();
    const l = await run('same');
    const label = i === 0 ? 'warm-up' : `round ${i}`;
    console.log(
      `  ${label.padEnd(8)} floor ${ms(f.ms).padStart(8)}   re-encode end to end ${ms(e.ms).padStart(8)} (image shown after ${ms(e.opened)})` +
        `   ratio ${(e.ms / f.ms).toFixed(2)}   |   decode + flip + encode ${ms(f.flipped).padStart(8)}   lossless ${ms(l.download).padStart(8)}` +
        ` (${(l.size / 1e6).toFixed(1)} MB)   ratio ${(f.flipped / l.download).toFixed(2)}   |   longest main-thread task ${ms(Math.max(e.longest, l.longest))}`,
    );
    if (i === 0) continue;
    floors.push(f);
    ends.push(e);
    losslesses.push(l);
  }
  const f = median(floors.map((x) => x.ms));
  const e = median(ends.map((x) => x.ms));
  const flipped = median(floors.map((x) => x.flipped));
  const lossless = median(losslesses.map((x) => x.download));
  const ratio = Number((e / f).toFixed(2)); // as printed, so that the warning agrees with it
  const speedup = Number((flipped / lossless).toFixed(2));
  const longest = Math.max(...[...ends, ...losslesses].map((x) => x.longest));
  console.log(`median: floor (decode + encode) ${ms(f)}, re-encode end to end (file in → blob out) ${ms(e)}`);
  console.log(`re-encode/floor ratio: ${ratio} (goal ≤ ${goals.ratio})`);
  console.log(`median: decode + flip + encode ${ms(flipped)}, lossless flip (Download → blob) ${ms(lossless)}`);
  console.log(`lossless speed-up: ${speedup}× (goal ≥ ${goals.lossless}×)`);
  console.log(`longest main-thread task: ${ms(longest)} (goal ≤ ${goals.longTask} ms)`);
  if (ratio > goals.ratio) console.log(`bench-flip: WARNING: the flip costs ${ratio}× the floor, over the goal of ${goals.ratio}`);
  if (speedup < goals.lossless) console.log(`bench-flip: WARNING: the lossless flip is ${speedup}× as fast as decode + flip + encode, under the goal of ${goals.lossless}×`);
  if (longest > goals.longTask) console.log(`bench-flip: WARNING: the main thread was blocked for ${ms(longest)}, over the goal of ${goals.longTask} ms`);
} finally {
  await browser.close();
}
