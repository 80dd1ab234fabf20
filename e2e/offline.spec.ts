// The site offline, with its service worker: after one visit, the three tools of that language
// open in a new tab with the network off and work (the flipper's worker, the lossless JPEG path
// and the ZIP included, and a calculator's shared link); a page kept opens offline, a page never
// kept shows the offline page of a language that is, whose links work; the API never comes from
// a cache; an image shared to the app lands in the flipper.
import type { BrowserContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { jpegtran, makeJpeg } from '../web/test/features/flip/logic/lossless/testJpegs';
import { expect, hydrated, messages, namespaceMessages, test as base } from './fixtures';
import { startOwnServer, startProxy, type OwnServer, type Proxy } from './ownServer';

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
async function visit(page: Page, origin: string, path: string, locale: string) {
  await page.goto(origin + path);
  await hydrated(page);
  const kept = () => page.evaluate(async (offline) => (await caches.match(offline)) !== undefined, `/_offline/${locale}.html`);
  await expect.poll(kept, { timeout: 60_000 }).toBe(true);
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
  await visit(page, site.url, '/de', 'de');
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
  await visit(page, site.url, '/jp/faq', 'jp');
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
  await visit(page, site.url, '/', 'en');
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
  await visit(page, site.url, '/ko', 'ko');
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

test.describe('with a new build deployed while a page is open', () => {
  const next = 'feedfacefeedface';
  const proxied = test.extend<{ front: Proxy }>({
    front: async ({ site }, use) => {
      const proxy = await startProxy(site.url);
      try {
        await use(proxy);
      } finally {
        await proxy.close();
      }
    },
  });
  const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

  proxied('the new worker takes over without interrupting the task; the next page is the new build, and the old cache goes', async ({ page, front }) => {
    await visit(page, front.url, '/area-calculator', 'en');
    const [before] = await cacheNames(page);
    await page.locator('#area-l').fill('12.5');
    await page.locator('#area-w').fill('8');
    await expect(page.locator('.result-main output')).toHaveText('100 m²');
    await page.evaluate(() => ((window as unknown as { task: string }).task = 'in progress'));

    front.deploy(next);
    // The browser looks for a new worker at each navigation and now and then; here, now. The
    // new one takes over this page once it has the new build's files.
    const takenOver = page.evaluate(
      () => new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true })),
    );
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await takenOver;
    expect(await cacheNames(page)).toContain(`handy-${next}`);

    // The page was not reloaded, its work is intact, and what it loads still comes.
    expect(await page.evaluate(() => (window as unknown as { task?: string }).task)).toBe('in progress');
    await expect(page.locator('.result-main output')).toHaveText('100 m²');
    expect(await cacheNames(page)).toContain(before); // still in use by this page
    await page.locator('header a[href="/speed-calculator"]').first().click();
    await expect(page).toHaveURL(/\/speed-calculator$/);
    await expect(page.locator('#speed-d')).toBeVisible();

    // The next page opened is the new build's, and the old cache goes once no page uses it.
    await page.goto(`${front.url}/faq`);
    await hydrated(page);
    await expect.poll(() => cacheNames(page), { timeout: 60_000 }).toEqual([`handy-${next}`]);
  });

  proxied('a failed island chunk still reloads the target once, guarded for 10 seconds', async ({ page, front, consoleErrors }) => {
    await visit(page, front.url, '/', 'en');
    // The speed calculator's island: a chunk the worker has not kept and the server no longer has (as after a deploy).
    let failing = false;
    front.failWhile(/^\/assets\/speed-[^/]+\.js$/, () => failing);
    const forgetChunk = async () => {
      await page.evaluate(async () => {
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const req of await cache.keys()) if (/\/assets\/speed-[^/]+\.js$/.test(req.url)) await cache.delete(req);
        }
      });
      // Nor in the HTTP cache, which the worker's own requests go through.
      await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');
    };
    let documentLoads = 0;
    page.on('request', (r) => {
      if (r.resourceType() !== 'document') return;
      documentLoads++;
      if (new URL(r.url()).pathname === '/speed-calculator') failing = false; // the reload finds the chunk
    });
    const clickSpeedFromHome = async () => {
      failing = true;
      await forgetChunk();
      await page.goto(`${front.url}/`); // a fresh page: the chunk was never imported in it
      await hydrated(page);
      documentLoads = 0;
      await page.locator('header nav a[href="/speed-calculator"]').click();
    };

    await clickSpeedFromHome();
    await expect(page).toHaveURL(/\/speed-calculator$/);
    await hydrated(page);
    expect(documentLoads).toBe(1);
    const claimed = await page.evaluate(() => sessionStorage.getItem('handy:reload:/speed-calculator'));
    expect(claimed).toMatch(/^\d+$/);

    // Again within 10 s: the guard refuses a second reload, so there is no loop.
    await clickSpeedFromHome();
    // The failure is logged, then the guard decides at once: had it allowed a reload, it would
    // have recorded its time before reloading.
    await expect.poll(() => consoleErrors.some((e) => e.startsWith('Failed to load the page /speed-calculator'))).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('handy:reload:/speed-calculator'))).toBe(claimed);
    expect(documentLoads).toBe(0);
    consoleErrors.length = 0; // expected here
  });
});
