// The lossless rewriters of formats other than JPEG in the real page: an animated GIF comes out
// with every frame mirrored and its delays kept, the stage plays it, a truncated one is handled
// with a clear notice; an animated WebP keeps its frames (its lossy ones compressed again, and
// said so); a BMP stays a BMP; a 16-bit PNG stays 16-bit, sample for sample, a 24-megapixel one
// too; an animation past the bound is refused before decoding; a HEIC photo is refused where the
// browser cannot decode it, with the way out; and the canvas path keeps translucent colours.
import type { Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { parseTransformKey } from '../web/src/lib/image/transform';
import { expectedLayer, show } from '../web/test/features/flip/logic/lossless/gif/testGifs';
import { chunk, chunks, decode as decodePng, encodePng, picture, rearranged, same } from '../web/test/features/flip/logic/lossless/png/testPngs';
import { expect, fill, hydrated, test } from './fixtures';
import { flip } from './flipper';
import { png } from './images';

const corpus = join(import.meta.dirname, '../web/test/features/flip/logic/lossless/gif/corpus');
const m = flip('en');

async function open(page: Page, path: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.goto(path);
  await hydrated(page);
  await page.locator('input[type="file"]').setInputFiles(files);
}

async function download(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test('an animated GIF is flipped frame by frame: every frame mirrored, every delay kept, and the stage plays it', async ({ page }) => {
  const input = readFileSync(join(corpus, 'ball.gif'));
  await open(page, '/flip-image', [{ name: 'ball.gif', mimeType: 'image/gif', buffer: input }]);
  await expect(page.locator('.flip-view')).toBeVisible();
  await expect(page.locator('.notice')).toHaveCount(0); // no "first frame only" any more
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  expect(out.name).toBe('ball-flipped.gif');

  const before = show(new Uint8Array(input));
  const after = show(new Uint8Array(out.bytes));
  expect(before.frames.length).toBeGreaterThan(1);
  expect(after.frames.length).toBe(before.frames.length);
  expect(after.loop).toBe(before.loop);
  const screen = { x: 0, y: 0, width: before.width, height: before.height };
  before.frames.forEach((f, i) => {
    const g = after.frames[i];
    expect([g.delay, g.disposal, g.transparent], `frame ${i + 1}`).toEqual([f.delay, f.disposal, f.transparent]);
    const mirrored = expectedLayer(f.layer, screen, parseTransformKey('r0m')!);
    expect(Buffer.from(g.layer.data).equals(Buffer.from(mirrored.data)), `frame ${i + 1} pixels`).toBe(true);
  });

  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: 'ball-flipped.gif' }));
  await expect(page.locator('.notice')).toHaveText(fill(m.lossless.frames, { name: 'ball.gif', frames: before.frames.length }));
  await expect(page.locator('.flip-state')).toHaveText(m.state.lossless);
  // The result on the stage is the saved file itself, which the browser animates.
  const shown = page.locator('img.flip-view-result');
  await expect(shown).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight])).toEqual([after.width, after.height]);
  // A further flip shows the still preview again, until the next download.
  await page.getByRole('button', { name: m.ops.flipV }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.locator('canvas.flip-view-result')).toBeVisible();
});

test('with reduced motion, the stage keeps the still preview of an animation', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(page, '/flip-image', [{ name: 'ball.gif', mimeType: 'image/gif', buffer: readFileSync(join(corpus, 'ball.gif')) }]);
  await page.getByRole('button', { name: m.ops.flipH }).click();
  await download(page, m.download);
  await expect(page.locator('.flip-state')).toHaveText(m.state.lossless);
  await expect(page.locator('img.flip-view-result')).toHaveCount(0);
  await expect(page.locator('canvas.flip-view-result')).toBeVisible();
});

test('a cropped animated GIF keeps every frame, cropped', async ({ page }) => {
  const input = readFileSync(join(corpus, 'ball.gif'));
  await open(page, '/flip-image', [{ name: 'ball.gif', mimeType: 'image/gif', buffer: input }]);
  await page.getByRole('button', { name: fill(m.cropFor, { name: 'ball.gif' }) }).click();
  await expect(page.locator('.cropper')).toHaveAttribute('data-state', 'loaded');
  await page.getByRole('group', { name: m.cropper.region }).focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await page.keyboard.press('Alt+ArrowLeft');
  await page.getByRole('button', { name: m.cropApply }).click();
  const out = await download(page, m.download);
  const before = show(new Uint8Array(input));
  const after = show(new Uint8Array(out.bytes));
  expect(out.name).toBe('ball-flipped.gif');
  expect(after.frames.length).toBe(before.frames.length);
  expect(after.width).toBeLessThan(before.width);
  await expect(page.locator('.flip-state')).toHaveText(m.state.lossless);
});

test('a truncated animation is refused by the rewriter with a clear notice, and saved from what the browser shows', async ({ page }) => {
  const input = readFileSync(join(corpus, 'ball.gif'));
  const cut = input.subarray(0, Math.floor(input.length * 0.6));
  await open(page, '/flip-image', [{ name: 'cut.gif', mimeType: 'image/gif', buffer: Buffer.from(cut) }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  expect(out.name).toBe('cut-flipped.png');
  await expect(page.locator('.notice')).toHaveText([
    fill(m.animatedFirstFrame, { name: 'cut.gif', format: 'PNG' }),
    fill(m.lossless.fallback.damaged, { name: 'cut.gif' }),
  ]);
  await expect(page.locator('.flip-state')).toHaveText(m.state.reencoded);
});

/** An ISO media file that says it is a HEIC image: its ftyp box and an image size, no picture. */
function heic(): Buffer {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const ispe = Buffer.alloc(12);
  ispe.writeUInt32BE(64, 4);
  ispe.writeUInt32BE(48, 8);
  return Buffer.concat([
    box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')),
    box('meta', Buffer.concat([Buffer.alloc(4), box('iprp', box('ipco', box('ispe', ispe)))])),
  ]);
}

test('a HEIC photo the browser cannot decode is refused with the browsers that can and what to do, in the visitor’s language', async ({ page }) => {
  for (const [path, code] of [
    ['/flip-image', 'en'],
    ['/jp/flip-image', 'jp'],
  ]) {
    await open(page, path, [{ name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: heic() }]);
    await expect(page.locator('.notice-error')).toHaveText(fill(flip(code).errors.heic, { name: 'IMG_0001.HEIC' }));
    await expect(page.locator('.flip-item')).toHaveCount(0);
  }
});

/** A one-row RGBA PNG with a gamma of 1 (linear): the browser converts its colours to sRGB. */
function linearPng(pixels: number[]): Buffer {
  const gama = Buffer.alloc(4);
  gama.writeUInt32BE(100000);
  return png({ width: pixels.length / 4, height: 1, data: pixels }, [['gAMA', gama]]);
}

/** The pixels of image bytes read as `how` says, in the page. */
function pixels(page: Page, bytes: Buffer, how: 'shown' | 'stored'): Promise<number[]> {
  return page.evaluate(
    async ([b64, how]) => {
      const file = new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]);
      // As an <img> shows it (colours converted for the screen), or the samples as stored.
      const source =
        how === 'shown'
          ? await (async () => {
              const img = new Image();
              img.src = URL.createObjectURL(file);
              await img.decode();
              return img;
            })()
          : await createImageBitmap(file, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const c = new OffscreenCanvas(source.width, source.height);
      const ctx = c.getContext('2d')!;
      ctx.drawImage(source, 0, 0);
      return [...ctx.getImageData(0, 0, source.width, source.height).data];
    },
    [bytes.toString('base64'), how] as const,
  );
}

test('translucent pixels re-encoded through the canvas keep the colour the browser shows, within 1/255', async ({ page }) => {
  // Dark, translucent greys of a gamma-1 PNG: premultiplied at 8 bits before the conversion to
  // sRGB, 3 at alpha 128 came out 34 where the browser shows 28.
  const input = linearPng([3, 3, 3, 128, 10, 10, 10, 64, 90, 90, 90, 20]);
  await open(page, '/flip-image', [{ name: 'linear.png', mimeType: 'image/png', buffer: input }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.locator('#flip-format').selectOption('png'); // a PNG chosen, not kept: drawn on the canvas
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  const shown = await pixels(page, input, 'shown');
  const saved = await pixels(page, out.bytes, 'stored');
  // Mirrored: the pixels in reverse order.
  const expected = [8, 4, 0].flatMap((at) => shown.slice(at, at + 4));
  expect(shown.slice(0, 3)).not.toEqual([3, 3, 3]); // the colours were converted
  saved.forEach((v, i) => expect(Math.abs(v - expected[i]), `sample ${i}: ${v} for ${expected[i]}`).toBeLessThanOrEqual(1));
});

test('a 16-bit PNG kept as PNG comes out in 16 bits, every sample mirrored, its gamma chunk kept', async ({ page }) => {
  const gama = chunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])); // 1/2.2
  const input = encodePng(picture(61, 37, 16, 6, 7), { before: [gama] });
  await open(page, '/flip-image', [{ name: 'deep.png', mimeType: 'image/png', buffer: input }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  expect(out.name).toBe('deep-flipped.png');
  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: 'deep-flipped.png' }));
  expect([out.bytes[24], out.bytes[25]]).toEqual([16, 6]); // IHDR: depth and colour type
  expect(chunks(new Uint8Array(out.bytes)).map((c) => c.type)).toContain('gAMA');
  expect(same(decodePng(new Uint8Array(out.bytes)), rearranged(decodePng(new Uint8Array(input)), parseTransformKey('r0m')!))).toBe(true);
});

test('a 24-megapixel 16-bit PNG is flipped losslessly in the page', async ({ page }, info) => {
  // 6000 × 4000 RGB at 16 bits: 144 MB of samples, a gradient that compresses well.
  const [width, height] = [6000, 4000];
  const stride = 1 + width * 6;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.writeUInt16BE((x * 10) & 0xffff, y * stride + 1 + x * 6);
    rows.writeUInt16BE(y * 16, y * stride + 3);
  }
  const head = Buffer.alloc(13);
  head.writeUInt32BE(width, 0);
  head.writeUInt32BE(height, 4);
  head.set([16, 2, 0, 0, 0], 8);
  const input = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', head), chunk('IDAT', deflateSync(rows, { level: 1 })), chunk('IEND')]);
  const path = info.outputPath('big16.png'); // too large to pass as a buffer
  writeFileSync(path, input);
  await page.goto('/flip-image');
  await hydrated(page);
  await page.locator('input[type="file"]').setInputFiles(path);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.getByRole('button', { name: m.ops.rotateCW }).click();
  const out = await download(page, m.download);
  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: 'big16-flipped.png' }));
  expect([out.bytes.readUInt32BE(16), out.bytes.readUInt32BE(20), out.bytes[24], out.bytes[25]]).toEqual([height, width, 16, 2]);
});

test('an animation whose frames hold too many pixels is refused before anything is decoded, with the numbers', async ({ page }) => {
  // A 10000 × 10000 screen and 12 one-pixel frames: 1.2 billion pixels to decode, all told.
  const frame = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
  const gif = Buffer.from([...Buffer.from('GIF89a', 'latin1'), 0x10, 0x27, 0x10, 0x27, 0, 0, 0, ...Array.from({ length: 12 }, () => frame).flat(), 0x3b]);
  await open(page, '/flip-image', [{ name: 'huge.gif', mimeType: 'image/gif', buffer: gif }]);
  const limit = `${(1024).toLocaleString('en')} MB`;
  await expect(page.locator('.notice-error')).toHaveText(fill(m.errors.tooManyFrames, { name: 'huge.gif', frames: 12, limit }));
  await expect(page.locator('.flip-item')).toHaveCount(0);
});

const webpCorpus = join(import.meta.dirname, '../web/test/features/flip/logic/lossless/webp/corpus');

test('an animated WebP kept as WebP keeps its frames: lossless ones losslessly, lossy ones compressed again and said so', async ({ page }) => {
  const lossless = readFileSync(join(webpCorpus, 'anim-lossless.webp'));
  const lossy = readFileSync(join(webpCorpus, 'anim-lossy.webp'));
  await open(page, '/flip-image', [
    { name: 'a.webp', mimeType: 'image/webp', buffer: lossless },
    { name: 'b.webp', mimeType: 'image/webp', buffer: lossy },
  ]);
  await expect(page.locator('.flip-item')).toHaveCount(2);
  await expect(page.locator('.notice')).toHaveCount(0);
  await expect(page.locator('#flip-quality')).toBeVisible(); // the lossy frames' quality
  await page.getByRole('button', { name: m.ops.flipH }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: m.downloadZip }).click()]);
  await expect(page.locator('.flip-state')).toHaveText([m.state.lossless, m.state.reencoded]);
  await expect(page.locator('.notice')).toHaveText([
    fill(m.lossless.frames, { name: 'a.webp', frames: 6 }),
    fill(m.lossless.framesReencoded, { name: 'b.webp', frames: 6 }),
    fill(m.lossless.count, { count: 1, total: 2 }),
  ]);
});

test('a BMP kept as BMP comes out a BMP, its rows of pixels mirrored', async ({ page }) => {
  // 3 × 2, 24 bits, bottom-up rows padded to 4 bytes: BGR triples.
  const row = (px: number[][]) => Buffer.from([...px.flat(), 0, 0, 0].slice(0, 12));
  const pixels = Buffer.concat([row([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), row([[10, 11, 12], [13, 14, 15], [16, 17, 18]])]);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(3, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  const input = Buffer.concat([header, pixels]);
  await open(page, '/flip-image', [{ name: 'scan.bmp', mimeType: 'image/bmp', buffer: input }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  expect(out.name).toBe('scan-flipped.bmp');
  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: 'scan-flipped.bmp' }));
  const offset = out.bytes.readUInt32LE(10);
  expect([...out.bytes.subarray(offset, offset + 24)]).toEqual([7, 8, 9, 4, 5, 6, 1, 2, 3, 0, 0, 0, 16, 17, 18, 13, 14, 15, 10, 11, 12, 0, 0, 0]);
});
