// The site offline, with its service worker: after one visit, the three tools of that language
// open in a new tab with the network off and work (the flipper's worker, the lossless JPEG path
// and the ZIP included, and a calculator's shared link); a page kept opens offline, a page never
// kept shows the offline page of a language that is, whose links work; the API never comes from
// a cache; an image shared to the app lands in the flipper.
import type { BrowserContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { jpegtran, makeJpeg } from '../web/src/features/flip/logic/lossless/testJpegs';
import { expect, hydrated, messages, namespaceMessages, test as base } from './fixtures';
import { startOwnServer, type OwnServer } from './ownServer';

type FlipMessages = typeof import('../web/src/features/flip/locales/en.json');
type PwaMessages = typeof import('../web/src/features/pwa/locales/en.json');
const flip = (code: string) => namespaceMessages<FlipMessages>('flip', code);
const pwa = (code: string) => namespaceMessages<PwaMessages>('pwa', code);

// Each test has a handy of its own, which it stops to take the network away: the browser then
// meets refused connections, as with no network at all (Playwright's offline emulation does not
// reach the service worker's own requests).
const test = base.extend<{ site: OwnServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
  site: async ({}, use) => {
    const site = await startOwnServer();
    try {
      await use(site);
    } finally {
      await site.close();
    }
  },
});
test.use({ serviceWorkers: 'allow' });

/** Opens path and waits until the service worker has kept the page's language for offline use. */
async function visit(page: Page, site: OwnServer, path: string, locale: string) {
  await page.goto(site.url + path);
  await hydrated(page);
  const kept = () => page.evaluate(async (offline) => (await caches.match(offline)) !== undefined, `/_offline/${locale}.html`);
  await expect.poll(kept, { timeout: 20_000 }).toBe(true);
}

/** A new tab with the network gone. */
async function offlineTab(context: BrowserContext, site: OwnServer): Promise<Page> {
  await site.stop();
  return context.newPage();
}

async function download(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test('after one visit, the three tools of that language work in a new tab with the network off', async ({ page, context, site }) => {
  await visit(page, site, '/de', 'de');
  const tab = await offlineTab(context, site);

  // A calculator's shared link.
  await tab.goto(site.url + '/de/area-calculator?shape=circle&r=2');
  await hydrated(tab);
  await expect(tab.locator('.result-main output')).toHaveText('12,566371 m²');

  await tab.goto(site.url + '/de/speed-calculator');
  await hydrated(tab);
  await tab.locator('#speed-d').fill('150');
  await tab.locator('#speed-t').fill('2:30:00');
  await expect(tab.locator('.result-main').first()).toContainText('60 km/h');

  // The flipper: its worker, the lossless JPEG transform, and a ZIP of two.
  const m = flip('de');
  await tab.goto(site.url + '/de/flip-image');
  await hydrated(tab);
  const jpeg = makeJpeg({ width: 64, height: 48, sampling: '4:2:0' });
  await tab.locator('input[type="file"]').setInputFiles([{ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) }]);
  await expect(tab.locator('.flip-item')).toHaveCount(1);
  await tab.getByRole('button', { name: m.ops.flipH }).click();
  const out = await download(tab, m.download);
  expect(out.bytes.equals(Buffer.from(jpegtran(jpeg, ['-flip', 'horizontal'])))).toBe(true);
  const other = makeJpeg({ width: 16, height: 16, sampling: '4:4:4' });
  await tab.locator('input[type="file"]').setInputFiles([{ name: 'klein.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(other) }]);
  await expect(tab.locator('.flip-item')).toHaveCount(2);
  const zip = await download(tab, m.downloadZip);
  expect(Object.keys(unzipSync(new Uint8Array(zip.bytes))).sort()).toEqual(['foto-flipped.jpg', 'klein-flipped.jpg']);
});

test('a page kept opens offline; one never kept shows the offline page of a language kept, whose links work', async ({ page, context, site }) => {
  await visit(page, site, '/jp/faq', 'jp');
  const tab = await offlineTab(context, site);
  await tab.goto(site.url + '/jp/terms-conditions');
  await expect(tab.locator('h1')).not.toHaveText(pwa('jp').offline.title);
  await expect(tab.locator('html')).toHaveAttribute('lang', 'ja');

  await tab.goto(site.url + '/fr/faq'); // French was never visited: nothing of it is kept
  await expect(tab.locator('h1')).toHaveText(pwa('jp').offline.title);
  await expect(tab).toHaveURL(/\/fr\/faq$/);
  await tab.locator('main').getByRole('link', { name: messages('jp').pages['speed-calculator'].label }).click();
  await expect(tab).toHaveURL(/\/jp\/speed-calculator$/);
  await hydrated(tab);
  await expect(tab.locator('#speed-d')).toBeVisible();
});

test('API requests are never served from a cache', async ({ page, site }) => {
  await visit(page, site, '/', 'en');
  const online = await page.evaluate(async () => (await fetch('/api/v1/auth/me')).status);
  expect(online).toBe(401);
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls;
  });
  expect(kept.length).toBeGreaterThan(20);
  expect(kept.filter((u) => u.startsWith('/api/') || u.startsWith('/builds/'))).toEqual([]);
  await site.stop();
  const offline = await page.evaluate(() => fetch('/api/v1/auth/me').then((r) => `answered ${r.status}`, () => 'failed'));
  expect(offline).toBe('failed');
});

test('an image shared to the app lands in the flipper, without reaching the server', async ({ page, site }) => {
  await visit(page, site, '/ko', 'ko');
  const jpeg = makeJpeg({ width: 32, height: 24, sampling: '4:2:0' });
  await site.stop(); // the share is the worker's alone
  // What the installed app's share sheet sends: a form POST to the manifest's share target.
  await page.evaluate(async (bytes) => {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = '/share-target?lang=ko';
    form.enctype = 'multipart/form-data';
    const input = document.createElement('input');
    input.type = 'file';
    input.name = 'images';
    const files = new DataTransfer();
    files.items.add(new File([new Uint8Array(bytes)], 'shared.jpg', { type: 'image/jpeg' }));
    input.files = files.files;
    form.append(input);
    document.body.append(form);
    form.submit();
  }, [...jpeg]);
  await expect(page).toHaveURL(/\/ko\/flip-image$/);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await expect(page.locator('.flip-item')).toContainText('shared.jpg');
});
