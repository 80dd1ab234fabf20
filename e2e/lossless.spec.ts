// The lossless JPEG path in the real page: a JPEG kept as JPEG comes out exactly as libjpeg's
// jpegtran writes it, the page says it was lossless, a partial edge is trimmed (or, by choice,
// the image re-encoded), and what the path cannot do is re-encoded with a notice.
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { jpegtran, makeJpeg } from '../web/test/features/flip/logic/lossless/testJpegs';
import { withExif } from '../web/src/lib/image/exif';
import { expect, fill, hydrated, namespaceMessages, test } from './fixtures';
import { at, decode } from './images';

type FlipMessages = typeof import('../web/src/features/flip/locales/en.json');
const flip = (code: string) => namespaceMessages<FlipMessages>('flip', code);

async function openWith(page: Page, path: string, name: string, jpeg: Uint8Array) {
  await page.goto(path);
  await hydrated(page);
  await page.locator('input[type="file"]').setInputFiles([{ name, mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
}

async function download(page: Page, label: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
  return readFileSync(await file.path());
}

test('flips a JPEG losslessly: the file is byte for byte what jpegtran writes, and the page says so', async ({ page }) => {
  const m = flip('en');
  const jpeg = makeJpeg({ width: 64, height: 48, sampling: '4:2:0', progressive: true });
  await openWith(page, '/flip-image', 'photo.jpg', jpeg);
  await expect(page.locator('#flip-edges')).toHaveValue('trim');
  await expect(page.locator('#flip-quality')).toHaveCount(0); // nothing is re-compressed
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(page, m.download);
  expect(out.equals(Buffer.from(jpegtran(jpeg, ['-flip', 'horizontal'])))).toBe(true);
  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: 'photo-flipped.jpg' }));

  // A quarter turn the other way, from a shortcut: the same as jpegtran -rotate 270.
  await page.getByRole('button', { name: m.ops.reset }).click();
  await page.keyboard.press('Shift+R');
  const turned = await download(page, m.download);
  expect(turned.equals(Buffer.from(jpegtran(jpeg, ['-rotate', '270'])))).toBe(true);
});

test('trims a partial edge to stay lossless, or keeps every pixel by re-encoding, and says which', async ({ page }) => {
  const m = flip('en');
  const jpeg = makeJpeg({ width: 37, height: 21, sampling: '4:2:0' });
  await openWith(page, '/flip-image', 'odd.jpg', jpeg);
  await page.getByRole('button', { name: m.ops.flipH }).click();
  const trimmed = await download(page, m.download);
  expect(trimmed.equals(Buffer.from(jpegtran(jpeg, ['-flip', 'horizontal'])))).toBe(true);
  await expect(page.locator('.notice')).toHaveText(fill(m.lossless.trimmed, { name: 'odd.jpg', width: 32, height: 21 }));

  await page.locator('#flip-edges').selectOption('perfect');
  const whole = await download(page, m.download);
  await expect(page.locator('.notice').last()).toHaveText(fill(m.lossless.fallback.edges, { name: 'odd.jpg' }));
  await expect(page.locator('.flip-status')).toHaveText(fill(m.saved, { name: 'odd-flipped.jpg' }));
  const pixels = await decode(page, whole);
  expect([pixels.width, pixels.height]).toEqual([37, 21]);
  // Re-encoded, but flipped: the left column now holds what was the right one.
  const input = await decode(page, Buffer.from(jpeg));
  const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 40);
  expect(near(at(pixels, 2, 10), at(input, 34, 10))).toBe(true);
});

test('re-encodes what the lossless path cannot do (an RGB JPEG), with a notice', async ({ page }) => {
  const m = flip('en');
  await openWith(page, '/flip-image', 'rgb.jpg', makeJpeg({ width: 32, height: 32, sampling: '4:4:4', rgb: true }));
  await page.getByRole('button', { name: m.ops.flipV }).click();
  const out = await download(page, m.download);
  expect([...out.subarray(0, 2)]).toEqual([0xff, 0xd8]);
  await expect(page.locator('.notice')).toHaveText(fill(m.lossless.fallback.unsupported, { name: 'rgb.jpg' }));
});

test('JPEG output with a quality of its own is re-encoded, without a lossless notice', async ({ page }) => {
  const m = flip('en');
  await openWith(page, '/flip-image', 'q.jpg', makeJpeg({ width: 32, height: 32, sampling: '4:2:0' }));
  await page.locator('#flip-format').selectOption('jpeg');
  await expect(page.locator('#flip-edges')).toHaveCount(0);
  await expect(page.locator('#flip-quality')).toBeVisible();
  await download(page, m.download);
  await expect(page.locator('.flip-status')).toHaveText(fill(m.saved, { name: 'q-flipped.jpg' }));
  await expect(page.locator('.notice')).toHaveCount(0);
});

test('a phone photo (EXIF orientation 6) comes out upright, losslessly, in Japanese', async ({ page }) => {
  const m = flip('jp');
  const stored = makeJpeg({ width: 64, height: 32, sampling: '4:2:0' });
  // Orientation 6, big-endian: stored turned left, shown after a right turn.
  const orientation6 = Uint8Array.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]);
  await openWith(page, '/jp/flip-image', '写真.jpg', withExif(stored, orientation6));
  await expect(page.locator('#flip-edges option')).toHaveText([m.lossless.edgesOptions.trim, m.lossless.edgesOptions.perfect]);
  const out = await download(page, m.download);
  expect(out.equals(Buffer.from(jpegtran(stored, ['-rotate', '90'])))).toBe(true);
  await expect(page.locator('.flip-status')).toHaveText(fill(m.lossless.saved, { name: '写真-flipped.jpg' }));
});
