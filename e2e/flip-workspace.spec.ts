// The flipper's workspace (issue 18): the drop zone gives way to a compact "Add images", the
// selected image fills the stage (measured against the window, not compared with a screenshot),
// the before/after slider by keyboard and by pointer (pixels either side of it are the original's
// and the result's), the original alone, the list of images, the motion of a flip and its absence
// with reduced motion, axe in both themes, and a run in Japanese.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, fill, hydrated, test } from './fixtures';
import { flip, openWith } from './flipper';
import { at, decode, png, type Pixels } from './images';


const red = [220, 30, 30, 255];
const blue = [30, 60, 220, 255];

/** A photo-sized image, red on its left half and blue on its right: a flip swaps the halves. */
function halves(width: number, height: number, left = red, right = blue): Buffer {
  const data: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.push(...(x < width / 2 ? left : right));
  return png({ width, height, data });
}

/** What the stage shows, as pixels, and the colour at a fraction of its width (mid-height). */
async function stage(page: Page): Promise<{ pixels: Pixels; colorAt: (fx: number) => number[] }> {
  const pixels = await decode(page, await page.locator('.flip-view').screenshot());
  return { pixels, colorAt: (fx) => at(pixels, Math.round(fx * (pixels.width - 1)), pixels.height >> 1) };
}

const near = (a: number[], b: number[]) => a.slice(0, 3).every((v, i) => Math.abs(v - b[i]) <= 24);

test.describe('in English', () => {
  const m = flip('en');

  test('once an image is open, the drop zone is a compact control and the image fills the stage (1280 px)', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/flip-image');
    await hydrated(page);
    await expect(page.locator('.drop-zone')).toBeVisible();
    await expect(page.locator('.drop-title')).toHaveText(m.drop.title);
    await page.locator('input[type="file"]').setInputFiles([{ name: 'photo.png', mimeType: 'image/png', buffer: halves(640, 400) }]);
    await expect(page.locator('.flip-view')).toBeVisible();
    await expect(page.locator('.drop-zone')).toHaveCount(0);
    await expect(page.locator('.flip-add label')).toHaveText(m.add);
    // The whole stage is in the window, toolbar included.
    const view = (await page.locator('.flip-view').boundingBox())!;
    const main = (await page.locator('main').boundingBox())!;
    const toolbar = (await page.locator('.flip-toolbar').boundingBox())!;
    const available = await page.evaluate(() => window.innerHeight);
    // At least 60 % of the content width, or the full height the window leaves it.
    expect(view.width >= 0.6 * main.width || view.height >= available - 14 * 16 - 2).toBe(true);
    expect(view.width / view.height).toBeCloseTo(640 / 400, 2);
    expect(toolbar.y + toolbar.height).toBeLessThanOrEqual(available + 1);
    // Nothing moves when the preview updates.
    await page.getByRole('button', { name: m.ops.flipH }).click();
    expect(await page.locator('.flip-view').boundingBox()).toEqual(view);
    // The side panel and the stage start at the same height.
    const side = (await page.locator('.flip-side').boundingBox())!;
    const stageBox = (await page.locator('.flip-stage').boundingBox())!;
    expect(Math.abs(side.y - stageBox.y)).toBeLessThanOrEqual(1);
  });

  test('on a phone the image takes the full width, with the toolbar under it in the window (390 px)', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openWith(page, '/flip-image', [{ name: 'photo.png', buffer: halves(640, 400) }]);
    const view = (await page.locator('.flip-view').boundingBox())!;
    const stageBox = (await page.locator('.flip-stage').boundingBox())!;
    expect(view.width).toBeGreaterThanOrEqual(stageBox.width - 1);
    expect(view.width).toBeGreaterThanOrEqual(390 - 2 * 24);
    const toolbar = (await page.locator('.flip-toolbar').boundingBox())!;
    expect(toolbar.y).toBeGreaterThanOrEqual(view.y + view.height); // never over the image
    expect(toolbar.y + toolbar.height).toBeLessThanOrEqual(844 + 1); // within reach, on screen
  });

  test('the comparison slider by keyboard: the original left of the line, the result right of it', async ({ page }) => {
    await openWith(page, '/flip-image', [{ name: 'photo.png', buffer: halves(640, 400) }]);
    await page.getByRole('button', { name: m.ops.flipH }).click(); // the result: blue | red
    const slider = page.getByRole('slider', { name: m.compare.label });
    await expect(slider).toHaveValue('50');
    await expect(slider).toHaveAttribute('aria-valuetext', fill(m.compare.value, { original: 50, result: 50 }));
    await slider.focus();
    await page.keyboard.press('End'); // all original: red | blue
    await expect(slider).toHaveValue('100');
    let s = await stage(page);
    expect(near(s.colorAt(0.1), red) && near(s.colorAt(0.9), blue)).toBe(true);
    await page.keyboard.press('Home'); // all result: blue | red
    await expect(slider).toHaveAttribute('aria-valuetext', fill(m.compare.value, { original: 0, result: 100 }));
    s = await stage(page);
    expect(near(s.colorAt(0.1), blue) && near(s.colorAt(0.9), red)).toBe(true);
    for (let i = 0; i < 75; i++) await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveValue('75');
    s = await stage(page);
    expect(near(s.colorAt(0.3), red)).toBe(true); // original, left half
    expect(near(s.colorAt(0.6), blue)).toBe(true); // original, right half (the result is red there)
    expect(near(s.colorAt(0.9), red)).toBe(true); // result, right half
  });

  test('the comparison slider by pointer, and the original alone', async ({ page }) => {
    await openWith(page, '/flip-image', [{ name: 'photo.png', buffer: halves(640, 400) }]);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    const view = (await page.locator('.flip-view').boundingBox())!;
    await page.mouse.click(view.x + view.width * 0.2, view.y + view.height / 2);
    const slider = page.getByRole('slider', { name: m.compare.label });
    expect(Math.abs(Number(await slider.inputValue()) - 20)).toBeLessThanOrEqual(1);
    let s = await stage(page);
    expect(near(s.colorAt(0.1), red)).toBe(true); // original
    expect(near(s.colorAt(0.4), blue)).toBe(true); // result (the original is red there)
    // A drag moves the line along.
    await page.mouse.move(view.x + view.width * 0.2, view.y + view.height / 2);
    await page.mouse.down();
    await page.mouse.move(view.x + view.width * 0.8, view.y + view.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(Math.abs(Number(await slider.inputValue()) - 80)).toBeLessThanOrEqual(1);
    // The original alone.
    const toggle = page.getByRole('button', { name: m.compare.showOriginal });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(slider).toHaveCount(0);
    s = await stage(page);
    expect(near(s.colorAt(0.1), red) && near(s.colorAt(0.9), blue)).toBe(true);
    await toggle.click();
    await expect(slider).toBeVisible();
  });

  test('several images: the list chooses the one on the stage', async ({ page }) => {
    await openWith(page, '/flip-image', [
      { name: 'first.png', buffer: halves(320, 200) },
      { name: 'second.png', buffer: halves(320, 200, blue, blue) },
    ]);
    const first = page.getByRole('button', { name: fill(m.show, { name: 'first.png' }) });
    const second = page.getByRole('button', { name: fill(m.show, { name: 'second.png' }) });
    await expect(first).toHaveAttribute('aria-pressed', 'true');
    await expect(second).toHaveAttribute('aria-pressed', 'false');
    expect(near((await stage(page)).colorAt(0.1), red)).toBe(true);
    await second.click();
    await expect(second).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('img', { name: fill(m.compare.originalOf, { name: 'second.png' }) })).toBeAttached();
    expect(near((await stage(page)).colorAt(0.1), blue)).toBe(true);
    await expect(page.getByRole('button', { name: fill(m.cropFor, { name: 'second.png' }) })).toBeVisible();
  });

  test('a flip moves briefly, and not at all with reduced motion', async ({ page }) => {
    await openWith(page, '/flip-image', [{ name: 'photo.png', buffer: halves(64, 40) }]);
    const durations = () =>
      page.evaluate(() => document.getAnimations().map((a) => Number((a.effect?.getTiming().duration as number) ?? 0)));
    await page.getByRole('button', { name: m.ops.rotateCW }).click();
    const moving = await durations();
    expect(moving.length).toBeGreaterThan(0);
    for (const d of moving) expect(d).toBeLessThan(200);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => page.evaluate(() => document.getAnimations().length)).toBe(0); // that motion is over
    await page.getByRole('button', { name: m.ops.flipH }).click();
    expect(await durations()).toEqual([]);
  });

  test('choosing another image does not replay the last motion', async ({ page }) => {
    await openWith(page, '/flip-image', [
      { name: 'first.png', buffer: halves(64, 40) },
      { name: 'second.png', buffer: halves(64, 40) },
    ]);
    await page.getByRole('button', { name: m.ops.rotateCW }).click();
    await expect.poll(() => page.evaluate(() => document.getAnimations().length)).toBe(0); // its motion is over
    await page.getByRole('button', { name: fill(m.show, { name: 'second.png' }) }).click();
    await expect(page.getByRole('img', { name: fill(m.compare.originalOf, { name: 'second.png' }) })).toBeAttached();
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`axe finds nothing in the workspace (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await openWith(page, '/flip-image', [
        { name: 'first.png', buffer: halves(320, 200) },
        { name: 'second.png', buffer: halves(200, 320) },
      ]);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }
});

test('in Japanese: the compact control, the slider and the list speak Japanese', async ({ page }) => {
  const m = flip('jp');
  await openWith(page, '/jp/flip-image', [{ name: '写真.png', buffer: halves(640, 400) }]);
  await expect(page.locator('.flip-add label')).toHaveText(m.add);
  const slider = page.getByRole('slider', { name: m.compare.label });
  await slider.focus();
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuetext', fill(m.compare.value, { original: 100, result: 0 }));
  await expect(page.getByRole('button', { name: fill(m.show, { name: '写真.png' }) })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: m.compare.showOriginal })).toBeVisible();
});

test.describe('several images', () => {
  const m = flip('en');

  test('flips go to every image, or only to the one shown, a choice kept for the visit', async ({ page }) => {
    await openWith(page, '/flip-image', [
      { name: 'first.png', buffer: halves(32, 20) },
      { name: 'second.png', buffer: halves(32, 20) },
    ]);
    const all = page.getByRole('radio', { name: m.scope.all });
    const shown = page.getByRole('radio', { name: m.scope.selected });
    await expect(all).toBeChecked();
    await page.getByRole('button', { name: fill(m.show, { name: 'second.png' }) }).click();
    await shown.check();
    await page.getByRole('button', { name: m.ops.flipH }).click();
    // Only the second is flipped: downloaded one by one, its left half is blue, the first's red.
    for (const [name, left] of [
      ['first.png', red],
      ['second.png', blue],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: fill(m.downloadOne, { name }) }).click(),
      ]);
      const pixels = await decode(page, Buffer.from(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c))));
      expect(near(at(pixels, 2, 10), left)).toBe(true);
    }
    // Undo takes back that one step, and there is no other.
    await page.getByRole('button', { name: m.ops.undo }).click();
    await expect(page.getByRole('button', { name: m.ops.undo })).toBeDisabled();
    // The choice outlives a reload, within the visit.
    await page.reload();
    await hydrated(page);
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: halves(32, 20) },
      { name: 'b.png', mimeType: 'image/png', buffer: halves(32, 20) },
    ]);
    await expect(page.getByRole('radio', { name: m.scope.selected })).toBeChecked();
  });

  test('removing every image leaves nothing to undo for the next ones', async ({ page }) => {
    await openWith(page, '/flip-image', [{ name: 'one.png', buffer: halves(32, 20) }]);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    await expect(page.getByRole('button', { name: m.ops.undo })).toBeEnabled();
    await page.getByRole('button', { name: m.clear }).click();
    await expect(page.locator('.drop-zone')).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles([{ name: 'two.png', mimeType: 'image/png', buffer: halves(32, 20) }]);
    await expect(page.getByRole('button', { name: m.ops.undo })).toBeDisabled();
    await expect(page.getByRole('button', { name: m.ops.reset })).toBeDisabled();
  });

  test('each image says how its last download went', async ({ page }) => {
    await page.goto('/flip-image');
    await hydrated(page);
    const jpeg = await page.evaluate(async () => {
      const c = new OffscreenCanvas(32, 16);
      const ctx = c.getContext('2d')!;
      ctx.fillStyle = '#c33';
      ctx.fillRect(0, 0, 32, 16);
      const blob = await c.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
      return btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
    });
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg, 'base64') },
      { name: 'drawing.png', mimeType: 'image/png', buffer: halves(32, 16) },
    ]);
    await expect(page.locator('.flip-item')).toHaveCount(2);
    await expect(page.locator('.flip-state')).toHaveText([m.state.ready, m.state.ready]);
    await page.getByRole('button', { name: m.ops.flipH }).click();
    await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: m.downloadZip }).click()]);
    // A JPEG kept as JPEG and a PNG kept as PNG are both rewritten, not re-encoded.
    await expect(page.locator('.flip-state')).toHaveText([m.state.lossless, m.state.lossless]);
    // Written as WebP, both are encoded again.
    await page.locator('#flip-format').selectOption('webp');
    await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: m.downloadZip }).click()]);
    await expect(page.locator('.flip-state')).toHaveText([m.state.reencoded, m.state.reencoded]);
    // A change makes an image ready again.
    await page.getByRole('button', { name: m.ops.flipV }).click();
    await expect(page.locator('.flip-state')).toHaveText([m.state.ready, m.state.ready]);
  });
});

test('the crop step loads on first use; if it cannot, a message says so and the page goes on', async ({ page }) => {
  const m = flip('en');
  await openWith(page, '/flip-image', [{ name: 'photo.png', buffer: halves(64, 40) }]);
  const crop = page.getByRole('button', { name: fill(m.cropFor, { name: 'photo.png' }) });
  await page.route(/\/assets\/CropPanel-[^/]+\.js$/, (route) => route.abort());
  await crop.click();
  await expect(page.locator('.notice-error')).toHaveText(m.cropper.unavailable);
  await expect(page.locator('.flip-view')).toBeVisible(); // the workspace is still there
  await page.unroute(/\/assets\/CropPanel-[^/]+\.js$/);
  await crop.click();
  await expect(page.locator('#crop-heading')).toBeFocused();
});
