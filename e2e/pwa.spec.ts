// The installable app: every page links its language's web app manifest, which names and
// describes the app in that language and starts at its home; Chromium finds each installable
// and reads it without errors; the icons it names are served.
import { chromium as browserType, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '../scripts/tools/chromium.json' with { type: 'json' };
import type { buildManifest } from '../web/src/features/pwa/manifest';
import { expect, pagePath, site, test } from './fixtures';
import { baseURL } from './playwright.config';

const homes = site.locales.map((l) => ({ code: l.code, lang: l.lang, home: pagePath('index', l.code) }));
const tools = site.pages.filter((p) => p.nav === 'tool');
type Manifest = ReturnType<typeof buildManifest>;
type Icon = { src: string; sizes: string; type: string };

// Chromium never offers to install from an incognito profile, which Playwright's contexts are:
// the installability check runs in a profile on disk.
test.describe('installability', () => {
  let profile: string;
  let context: BrowserContext;
  test.beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'handy-pwa-'));
    context = await browserType.launchPersistentContext(profile, {
      executablePath: process.env.CHROME_PATH || chromium.path,
      args: chromium.flags,
      baseURL,
    });
  });
  test.afterAll(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });

  for (const { code, lang, home } of homes) {
    test(`the ${code} app is installable, in its language`, async () => {
      const page = await context.newPage();
      await page.goto(pagePath('area-calculator', code));
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe(code === 'en' ? '/manifest.webmanifest' : `/${code}/manifest.webmanifest`);

      const res = await page.request.get(href!);
      expect(res.headers()['content-type']).toBe('application/manifest+json');
      const manifest = (await res.json()) as Manifest;
      expect(manifest).toMatchObject({ id: '/', lang, start_url: home, scope: '/', display: 'standalone' });
      expect(manifest.shortcuts.map((s) => s.url)).toEqual(tools.map((p) => pagePath(p.name, code)));
      // Its description is the home page's, in that language.
      await page.goto(home);
      expect(manifest.description).toBe(await page.locator('meta[name="description"]').getAttribute('content'));

      const cdp = await page.context().newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
      const parsed = await cdp.send('Page.getAppManifest');
      expect(parsed.errors).toEqual([]);
      expect(parsed.url).toBe(baseURL + href);
      await page.close();
    });
  }
});

test('the icons the manifest names are served, PNGs at their sizes', async ({ page }) => {
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Manifest;
  await page.goto('/');
  const appleTouch: Icon = { src: '/icons/apple-touch-icon.png', sizes: '180x180', type: 'image/png' };
  for (const icon of [...manifest.icons, appleTouch] as Icon[]) {
    const res = await page.request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toBe(icon.type);
    if (icon.type !== 'image/png') continue;
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return `${img.naturalWidth}x${img.naturalHeight}`;
    }, icon.src);
    expect(size).toBe(icon.sizes);
  }
});

test('the page carries the app colours for light and dark', async ({ page }) => {
  await page.goto('/jp');
  const colours = await page.locator('meta[name="theme-color"]').evaluateAll((metas) =>
    metas.map((m) => [m.getAttribute('media'), m.getAttribute('content')]),
  );
  expect(colours).toEqual([
    ['(prefers-color-scheme: light)', '#0f5fa8'],
    ['(prefers-color-scheme: dark)', '#1a212c'],
  ]);
});

// An installed app's launch queue, as Chromium hands it image files opened with the app (File
// Handling). Headless Chromium installs no app, so the queue is the page's own, given before
// the page's scripts run; what is tested is that its files land in the flipper, on the device.
test('image files opened with the app land in the flipper', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => void (r.method() !== 'GET' && requests.push(`${r.method()} ${r.url()}`)));
  await page.addInitScript(() => {
    // A 1 × 1 PNG, as a file handle's file.
    const bytes = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    const handle = { kind: 'file', name: 'opened.png', getFile: async () => new File([bytes], 'opened.png', { type: 'image/png' }) };
    Object.defineProperty(window, 'launchQueue', {
      value: { setConsumer: (consumer: (params: { files: unknown[] }) => void) => consumer({ files: [handle] }) },
    });
  });
  await page.goto('/de/flip-image');
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await expect(page.locator('.flip-name')).toContainText('opened.png');
  expect(requests.filter((r) => !r.includes('/api/v1/pageviews'))).toEqual([]);
});
