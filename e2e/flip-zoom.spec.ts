// The flipper's zoom (issue 18): at 100 % one pixel of the image is one pixel of the screen,
// checked on every pixel in sight, at a density of 1 and of 2; the view pans by drag and by the
// arrow keys; a flip keeps the same detail in sight; fit brings the whole picture back.
// The test image is larger than the page's preview (1200 px), so the pixels at 100 % are the
// full-resolution ones the worker draws, and each pixel's colour spells out its coordinates.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { flip, openWith } from './flipper';
import { png } from './images';

const W = 2400;
const H = 1600;

/** A W×H image whose pixel (x, y) is red x mod 256, green y mod 256, blue their high bits. */
function coordinates(): Buffer {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0, i = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i += 4) data.set([x & 255, y & 255, (x >> 8) | ((y >> 8) << 4), 255], i);
  }
  return png({ width: W, height: H, data });
}

/**
 * What the view at 100 % shows, read back from a screenshot: the image pixel under the view's
 * top-left screen pixel, the steps in the image from one screen pixel to the next (right and
 * down), and how many screen pixels are not exactly the image pixel those steps predict. The
 * view's rounded corners, and the edge rows a fractional position adds, are left out: 16 CSS
 * pixels on every side.
 */
interface Shown {
  /** The canvas's size, in device pixels. */
  width: number;
  height: number;
  x0: number;
  y0: number;
  right: [number, number];
  down: [number, number];
  wrong: number;
}

async function shown(page: Page): Promise<Shown> {
  const shot = await page.locator('.flip-zoom-canvas').screenshot();
  return page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
    const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const at = (i: number, j: number) => {
      const k = (j * width + i) * 4;
      return [data[k] + ((data[k + 2] & 15) << 8), data[k + 1] + ((data[k + 2] >> 4) << 8)];
    };
    const m = Math.round(16 * devicePixelRatio);
    const [xm, ym] = at(m, m);
    const right = [at(m + 1, m)[0] - xm, at(m + 1, m)[1] - ym] as [number, number];
    const down = [at(m, m + 1)[0] - xm, at(m, m + 1)[1] - ym] as [number, number];
    const x0 = xm - m * (right[0] + down[0]);
    const y0 = ym - m * (right[1] + down[1]);
    let wrong = 0;
    for (let j = m; j < height - m; j++) {
      for (let i = m; i < width - m; i++) {
        const [x, y] = at(i, j);
        if (x !== x0 + i * right[0] + j * down[0] || y !== y0 + i * right[1] + j * down[1]) wrong++;
      }
    }
    const canvas = document.querySelector<HTMLCanvasElement>('.flip-zoom-canvas')!;
    return { width: canvas.width, height: canvas.height, x0, y0, right, down, wrong };
  }, shot.toString('base64'));
}

/**
 * Waits until the full-resolution pixels are in, every pixel in sight exactly one image pixel,
 * and the view is still: the arrow keys scroll smoothly, and a flip plays its motion.
 */
async function sharp(page: Page): Promise<Shown> {
  let last: Shown | undefined;
  await expect(async () => {
    const first = await shown(page);
    last = await shown(page);
    expect(last.wrong).toBe(0);
    expect(last).toEqual(first);
  }).toPass({ timeout: 60_000 });
  return last!;
}

const m = flip('en');

for (const deviceScaleFactor of [1, 2]) {
  test.describe(`at a pixel density of ${deviceScaleFactor}`, () => {
    test.use({ deviceScaleFactor, viewport: { width: 1280, height: 800 } });

    test('100 % shows the image pixel for pixel, and a drag and the arrow keys move it', async ({ page }) => {
      await openWith(page, '/flip-image', [{ name: 'coordinates.png', buffer: coordinates() }]);
      const fit = page.getByRole('button', { name: m.zoom.fit });
      const actual = page.getByRole('button', { name: m.zoom.actual });
      await expect(fit).toHaveAttribute('aria-pressed', 'true');
      const stageBox = await page.locator('.flip-view').boundingBox();
      await actual.click();
      await expect(actual).toHaveAttribute('aria-pressed', 'true');
      // The view keeps the stage's place and size: nothing on the page moves.
      expect(await page.locator('.flip-view').boundingBox()).toEqual(stageBox);
      const view = page.getByRole('group', { name: m.zoom.pan });
      await expect(view).toBeFocused();

      let s = await sharp(page);
      expect(s.right).toEqual([1, 0]);
      expect(s.down).toEqual([0, 1]);
      // The canvas has one pixel per device pixel.
      const canvas = (await page.locator('.flip-zoom-canvas').boundingBox())!;
      expect(Math.abs(s.width - canvas.width * deviceScaleFactor)).toBeLessThanOrEqual(1);
      expect(Math.abs(s.height - canvas.height * deviceScaleFactor)).toBeLessThanOrEqual(1);
      // It opens on the image's centre.
      expect(Math.abs(s.x0 + s.width / 2 - W / 2)).toBeLessThanOrEqual(2);
      expect(Math.abs(s.y0 + s.height / 2 - H / 2)).toBeLessThanOrEqual(2);

      // The arrow keys scroll the view: the image moves under it by whole screen pixels.
      const before = s;
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      await expect.poll(async () => (await shown(page)).x0).toBeGreaterThan(before.x0);
      s = await sharp(page);
      expect(s.y0).toBeGreaterThan(before.y0);

      // A drag with the mouse pulls the picture along: 100 by 60 CSS pixels to the left and up.
      const box = (await view.boundingBox())!;
      const from = s;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2 - 60, { steps: 4 });
      await page.mouse.up();
      await expect.poll(async () => (await shown(page)).x0).toBe(from.x0 + 100 * deviceScaleFactor);
      s = await sharp(page);
      expect(s.y0).toBe(from.y0 + 60 * deviceScaleFactor);

      // Far from where it opened, in pixels the first request did not bring: still exact.
      await page.keyboard.press('End');
      s = await sharp(page);
      expect(s.y0 + s.height).toBe(H);

      // Fit: the whole picture again, and the slider back.
      await fit.click();
      await expect(page.locator('.flip-zoom')).toHaveCount(0);
      await expect(page.getByRole('slider', { name: m.compare.label })).toBeVisible();
    });
  });
}

test('a flip at 100 % keeps the same detail in sight, mirrored; the original is there too', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWith(page, '/flip-image', [{ name: 'coordinates.png', buffer: coordinates() }]);
  await page.keyboard.press('z'); // the shortcut
  await expect(page.getByRole('button', { name: m.zoom.actual })).toHaveAttribute('aria-pressed', 'true');
  const view = page.getByRole('group', { name: m.zoom.pan });
  await expect(view).toBeFocused();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  const before = await sharp(page);
  const centre = (s: Shown) => [s.x0 + ((s.width / 2) | 0) * s.right[0], s.y0 + ((s.height / 2) | 0) * s.down[1]];

  await page.keyboard.press('h');
  const mirrored = await sharp(page);
  expect(mirrored.right).toEqual([-1, 0]); // the image runs right to left now
  expect(mirrored.down).toEqual([0, 1]);
  const [bx, by] = centre(before);
  const [mx, my] = centre(mirrored);
  expect(Math.abs(mx - bx)).toBeLessThanOrEqual(1);
  expect(my).toBe(by);

  // The original, at 100 %, around the same detail.
  await page.getByRole('button', { name: m.compare.showOriginal }).click();
  const original = await sharp(page);
  expect(original.right).toEqual([1, 0]);
  expect(Math.abs(centre(original)[0] - bx)).toBeLessThanOrEqual(1);

  const results = await new AxeBuilder({ page }).include('.flip-stage').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('in Japanese, a small image at 100 % is shown at its size in the middle, not enlarged', async ({ page }) => {
  const jp = flip('jp');
  await page.setViewportSize({ width: 1280, height: 800 });
  const small = png({ width: 200, height: 100, data: new Uint8Array(200 * 100 * 4).fill(200) });
  await openWith(page, '/jp/flip-image', [{ name: '小さい.png', buffer: small }]);
  await page.getByRole('button', { name: jp.zoom.actual }).click();
  await expect(page.getByRole('group', { name: jp.zoom.pan })).toBeFocused();
  // Nothing to scroll: the whole image is in sight, 200 × 100 screen pixels in the middle.
  const canvasBox = (await page.locator('.flip-zoom-canvas').boundingBox())!;
  const grey = await page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>('.flip-zoom-canvas')!;
    const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 200) n++;
    return n;
  });
  expect(grey).toBe(200 * 100);
  expect(canvasBox.width).toBeGreaterThan(200);
});
