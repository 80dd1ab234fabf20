// The image flipper in a real browser: images made by the tests go in through the file picker,
// the results come out as downloads and are compared pixel by pixel (PNG exactly, JPEG within a
// tolerance), in a ZIP for several files; the EXIF orientation; errors naming each file; and
// proof that no request carries image data.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasGps, jpegOrientation, readExif, withExif } from '../web/src/lib/image/exif';
import { expect, fill, hydrated, namespaceMessages, test } from './fixtures';
import { at, blocksJpeg, decode, gradient, png, type Pixels } from './images';

type FlipMessages = typeof import('../web/src/features/flip/locales/en.json');
const flip = (code: string) => namespaceMessages<FlipMessages>('flip', code);

async function open(page: Page, path = '/flip-image') {
  await page.goto(path);
  await hydrated(page);
}

async function choose(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.locator('input[type="file"]').setInputFiles(files);
  await expect(page.locator('.flip-item')).toHaveCount(files.filter((f) => f.buffer.length > 0 && f.mimeType.startsWith('image/')).length);
}

async function downloadBy(page: Page, action: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), action()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/** The pixels of an image after a transform, computed here from the definition. */
function mapped(src: Pixels, width: number, height: number, from: (x: number, y: number) => [number, number]): Pixels {
  const data: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.push(...at(src, ...from(x, y)));
  return { width, height, data };
}

const close = (a: number[], b: number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

test.describe('in English', () => {
  const m = flip('en');
  const grad = gradient(5, 3);
  const gradFile = { name: 'grad.png', mimeType: 'image/png', buffer: png(grad) };

  test('flips a PNG horizontally, exactly, and names the file', async ({ page }) => {
    await open(page);
    await expect(page.locator('.flip-privacy')).toHaveText(m.privacy);
    await choose(page, [gradFile]);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    const out = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    expect(out.name).toBe('grad-flipped.png');
    expect(await decode(page, out.bytes)).toEqual(mapped(grad, 5, 3, (x, y) => [4 - x, y]));
  });

  test('rotates by keyboard shortcut, undoes (a reset too), and saves with Ctrl+S', async ({ page }) => {
    await open(page);
    await choose(page, [gradFile]);
    await page.keyboard.press('r');
    await page.keyboard.press('h');
    await page.keyboard.press('Control+z'); // back to the rotation alone
    const out = await downloadBy(page, () => page.keyboard.press('Control+s'));
    // Rotated right: the output's top-left pixel was the input's bottom-left.
    expect(await decode(page, out.bytes)).toEqual(mapped(grad, 3, 5, (x, y) => [y, 2 - x]));
    // A reset can be undone too: it is one more step.
    const reset = page.getByRole('button', { name: m.ops.reset });
    await reset.click();
    await expect(reset).toBeDisabled();
    await page.getByRole('button', { name: m.ops.undo }).click();
    await expect(reset).toBeEnabled(); // the rotation is back
    const again = await downloadBy(page, () => page.keyboard.press('Control+s'));
    expect(await decode(page, again.bytes)).toEqual(mapped(grad, 3, 5, (x, y) => [y, 2 - x]));
  });

  test('flips a JPEG vertically and keeps it a JPEG, within a tolerance', async ({ page }) => {
    await open(page);
    const jpeg = await blocksJpeg(page, 64, 64);
    await choose(page, [{ name: 'photo.jpeg', mimeType: 'image/jpeg', buffer: jpeg }]);
    await page.getByRole('button', { name: m.ops.flipV }).click();
    const out = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    expect(out.name).toBe('photo-flipped.jpg');
    expect([...out.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const input = await decode(page, jpeg);
    const result = await decode(page, out.bytes);
    for (const [x, y] of [[16, 16], [48, 16], [16, 48], [48, 48]] as const) {
      expect(close(at(result, x, y), at(input, x, 63 - y), 12), `${x},${y}`).toBe(true);
    }
  });

  // Stored 64 × 32 as red, green / blue, yellow: where red ends up once shown as the camera meant.
  const upright = [
    [1, 'top-left'],
    [2, 'top-right'],
    [3, 'bottom-right'],
    [4, 'bottom-left'],
    [5, 'top-left'],
    [6, 'top-right'],
    [7, 'bottom-right'],
    [8, 'bottom-left'],
  ] as const;
  for (const [orientation, red] of upright) {
    test(`shows and saves a photo with EXIF orientation ${orientation} upright`, async ({ page }) => {
      await open(page);
      const stored = await blocksJpeg(page, 64, 32);
      const photo = Buffer.from(withExif(new Uint8Array(stored), orientationTiff(orientation)));
      await choose(page, [{ name: 'phone.jpg', mimeType: 'image/jpeg', buffer: photo }]);
      const [w, h] = orientation >= 5 ? [32, 64] : [64, 32];
      await expect(page.locator('.flip-name .field-hint')).toHaveText(fill(m.size, { width: w, height: h }));
      await page.locator('#flip-format').selectOption('png');
      const out = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
      const result = await decode(page, out.bytes);
      expect([result.width, result.height]).toEqual([w, h]);
      const x = red.endsWith('left') ? w / 4 : (3 * w) / 4;
      const y = red.startsWith('top') ? h / 4 : (3 * h) / 4;
      expect(close(at(result, x, y), [208, 0, 0, 255], 40), `red at the ${red}`).toBe(true);
    });
  }

  test('keeps the photo information without the location when asked, and says so', async ({ page }) => {
    await open(page);
    const stored = await blocksJpeg(page, 32, 32);
    const photo = Buffer.from(withExif(new Uint8Array(stored), gpsTiff()));
    await choose(page, [{ name: 'trip.jpg', mimeType: 'image/jpeg', buffer: photo }]);
    await page.locator('#flip-metadata').selectOption('keep-without-location');
    const out = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    await expect(page.locator('.notice')).toContainText(fill(m.locationRemoved, { name: 'trip.jpg' }));
    const kept = readExif(new Uint8Array(out.bytes));
    expect(kept).toBeDefined();
    expect(hasGps(kept!)).toBe(false);
    expect(jpegOrientation(new Uint8Array(out.bytes))).toBe(1);

    await page.locator('#flip-metadata').selectOption('strip');
    const stripped = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    expect(readExif(new Uint8Array(stripped.bytes))).toBeUndefined();
  });

  test('downloads several images as one ZIP', async ({ page }) => {
    await open(page);
    const other = gradient(2, 2);
    await choose(page, [gradFile, { name: 'small.png', mimeType: 'image/png', buffer: png(other) }]);
    await page.getByRole('button', { name: m.ops.flipV }).click();
    const out = await downloadBy(page, () => page.getByRole('button', { name: m.downloadZip }).click());
    expect(out.name).toMatch(/\.zip$/);
    const files = unzipSync(new Uint8Array(out.bytes));
    expect(Object.keys(files).sort()).toEqual(['grad-flipped.png', 'small-flipped.png']);
    expect(await decode(page, Buffer.from(files['small-flipped.png']))).toEqual(mapped(other, 2, 2, (x, y) => [x, 1 - y]));
  });

  test('names each file it cannot open, and goes on with the others', async ({ page }) => {
    await open(page);
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
      { name: 'broken.png', mimeType: 'image/png', buffer: png(grad).subarray(0, 40) },
      gradFile,
    ]);
    await expect(page.locator('.flip-item')).toHaveCount(1);
    const errors = page.locator('.notice-error');
    await expect(errors).toContainText([
      fill(m.errors.empty, { name: 'empty.png' }),
      fill(m.errors.unsupported, { name: 'notes.txt' }),
      fill(m.errors.corrupt, { name: 'broken.png' }),
    ]);
  });

  test('crops with the image cropper, by keyboard, before flipping', async ({ page }) => {
    await open(page);
    const big = gradient(12, 10);
    await choose(page, [{ name: 'big.png', mimeType: 'image/png', buffer: png(big) }]);
    await page.getByRole('button', { name: fill(m.cropFor, { name: 'big.png' }) }).click();
    await expect(page.locator('#crop-heading')).toBeFocused();
    await expect(page.locator('.cropper')).toHaveAttribute('data-state', 'loaded');
    const canvas = page.getByRole('group', { name: m.cropper.region });
    await canvas.focus();
    for (let i = 0; i < 2; i++) await page.keyboard.press('Alt+ArrowLeft'); // shrink from the right
    await page.getByRole('button', { name: m.cropApply }).click();
    const note = page.locator('.flip-name .field-hint').nth(1);
    await expect(note).toContainText(/\d+ × \d+/);
    const [w, h] = (await note.innerText()).match(/(\d+) × (\d+)/)!.slice(1).map(Number) as [number, number];
    expect(w).toBeLessThan(12);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    const out = await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    const result = await decode(page, out.bytes);
    expect([result.width, result.height]).toEqual([w, h]);
    // Every pixel of the gradient says where it came from (red = 20x, green = 20y): the result,
    // flipped back, is exactly one w × h window of the original.
    const [r, g] = at(result, w - 1, 0);
    const [ox, oy] = [r / 20, g / 20];
    expect(ox + w).toBeLessThanOrEqual(12);
    expect(result).toEqual(mapped(big, w, h, (x, y) => [ox + w - 1 - x, oy + y]));
  });

  test('sends no image anywhere', async ({ page }) => {
    await open(page);
    const requests: { method: string; url: string; body: number }[] = [];
    page.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postDataBuffer()?.length ?? 0 }));
    await choose(page, [gradFile]);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    await downloadBy(page, () => page.getByRole('button', { name: m.download, exact: true }).click());
    const origin = new URL(page.url()).origin;
    for (const r of requests) {
      expect(r.method, r.url).toBe('GET');
      expect(r.body, r.url).toBe(0);
      expect(r.url.startsWith(origin) || r.url.startsWith('blob:') || r.url.startsWith('data:'), r.url).toBe(true);
    }
  });

  test('has no axe violations with images open', async ({ page }) => {
    await open(page);
    await choose(page, [gradFile]);
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });
});

test('speaks Japanese, errors included', async ({ page }) => {
  const m = flip('jp');
  await open(page, '/jp/flip-image');
  await expect(page.locator('.flip-privacy')).toHaveText(m.privacy);
  await page.locator('input[type="file"]').setInputFiles([{ name: 'メモ.txt', mimeType: 'text/plain', buffer: Buffer.from('x') }]);
  await expect(page.locator('.notice-error')).toHaveText(fill(m.errors.unsupported, { name: 'メモ.txt' }));
});

/** A little-endian TIFF structure with one IFD0 entry: the orientation. */
function orientationTiff(orientation: number): Uint8Array {
  const b = Buffer.alloc(26);
  b.write('II', 0, 'latin1');
  b.writeUInt16LE(42, 2);
  b.writeUInt32LE(8, 4); // IFD0 offset
  b.writeUInt16LE(1, 8); // one entry
  b.writeUInt16LE(0x0112, 10); // Orientation
  b.writeUInt16LE(3, 12); // SHORT
  b.writeUInt32LE(1, 14); // count
  b.writeUInt16LE(orientation, 18);
  b.writeUInt32LE(0, 22); // no next IFD
  return new Uint8Array(b);
}

test('the worker draws a result too large for one canvas in strips, pixel for pixel', async ({ page }) => {
  await open(page);
  const worker = readdirSync(join(import.meta.dirname, '../web/dist/assets')).find((f) => /^flip\.worker-.*\.js$/.test(f));
  expect(worker).toBeDefined();
  const grad = gradient(7, 5);
  const result = await page.evaluate(
    async ([url, bytes]) => {
      const w = new Worker(url, { type: 'module' });
      const file = new Blob([Uint8Array.from(bytes)], { type: 'image/png' });
      type Outcome = { kind: string; bytes?: ArrayBuffer; inStrips?: boolean; mime?: string };
      const done = new Promise<Outcome>((resolve) => {
        w.onmessage = (e: MessageEvent<Outcome>) => e.data.kind !== 'progress' && resolve(e.data);
      });
      // Rotated right, with a limit of 6 pixels per canvas: strips of one row of 5 pixels. The
      // image was never opened, so the worker decodes the file itself.
      w.postMessage({
        kind: 'flip',
        id: 1,
        image: 1,
        file,
        format: 'png',
        transform: { turns: 1, mirror: false },
        output: { format: 'png', quality: 1 },
        metadata: 'strip',
        maxCanvasPixels: 6,
      });
      const r = await done;
      w.terminate();
      return { kind: r.kind, inStrips: r.inStrips, mime: r.mime, bytes: r.bytes ? [...new Uint8Array(r.bytes)] : [] };
    },
    [`/assets/${worker}`, [...png(grad)]] as const,
  );
  expect(result).toMatchObject({ kind: 'done', inStrips: true, mime: 'image/png' });
  expect(await decode(page, Buffer.from(result.bytes))).toEqual(mapped(grad, 5, 7, (x, y) => [y, 4 - x]));
});

/** Little-endian TIFF: IFD0 with orientation 6 and a GPS IFD holding a version and a latitude. */
function gpsTiff(): Uint8Array {
  const b = Buffer.alloc(80);
  b.write('II', 0, 'latin1');
  b.writeUInt16LE(42, 2);
  b.writeUInt32LE(8, 4);
  // IFD0 at 8: two entries (12 bytes each), then the next-IFD offset.
  b.writeUInt16LE(2, 8);
  b.writeUInt16LE(0x0112, 10); // Orientation, SHORT, 1, 6
  b.writeUInt16LE(3, 12);
  b.writeUInt32LE(1, 14);
  b.writeUInt16LE(6, 18);
  b.writeUInt16LE(0x8825, 22); // GPS IFD pointer, LONG, 1, offset 38
  b.writeUInt16LE(4, 24);
  b.writeUInt32LE(1, 26);
  b.writeUInt32LE(38, 30);
  b.writeUInt32LE(0, 34); // no IFD1
  // GPS IFD at 38: version 2.3.0.0 (BYTE×4) and latitude ref 'N' (ASCII×2).
  b.writeUInt16LE(2, 38);
  b.writeUInt16LE(0x0000, 40);
  b.writeUInt16LE(1, 42);
  b.writeUInt32LE(4, 44);
  b.set([2, 3, 0, 0], 48);
  b.writeUInt16LE(0x0001, 52);
  b.writeUInt16LE(2, 54);
  b.writeUInt32LE(2, 56);
  b.write('N\0', 60, 'latin1');
  b.writeUInt32LE(0, 64);
  return new Uint8Array(b);
}
