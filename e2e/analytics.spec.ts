// The page-view tracker in a real browser: a beacon per page view with the right fields, on load
// and on each client-side navigation (back included), none for a calculator rewriting its query,
// the referrer's host only when it is another site, and nothing at all from an automated or
// headless browser or with Global Privacy Control. The server's endpoint is stood in for there
// (answered 204): what is tested is what the browser sends. One test goes through to the real
// server and finds its view in the operator's report.
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageView } from '../web/src/features/analytics/logic/pageView';
import { expect, hydrated, test } from './fixtures';
import { adminToken } from './playwright.config';

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../web/build/client/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
const tracker = `/${manifest['src/features/analytics/tracker.ts'].file}`;

// Playwright's Chromium says it is automated (navigator.webdriver) and headless (in its user
// agent), and the tracker respects both: these tests present an ordinary desktop Chrome, with a
// language of its own so that it shows apart from the page's locale.
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
test.use({ userAgent: chrome, locale: 'de-DE' });

const notAutomated = (page: Page) =>
  page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));

/**
 * The page views that reach the network, checked as the server will take them (a POST of JSON as
 * text/plain) and answered 204, and a count of the document's calls to sendBeacon: exact at any
 * moment, where a request takes a little while to arrive, so that "no more" can be asserted.
 */
async function capture(page: Page) {
  const sent: PageView[] = [];
  const forms = new Set<string>();
  await page.route('**/api/v1/pageviews', async (route) => {
    const request = route.request();
    forms.add(`${request.method()} ${request.headers()['content-type']}`);
    sent.push(request.postDataJSON() as PageView);
    await route.fulfill({ status: 204 });
  });
  await page.addInitScript(() => {
    const send = navigator.sendBeacon.bind(navigator);
    let calls = 0;
    Object.defineProperty(window, 'beaconCalls', { get: () => calls });
    Navigator.prototype.sendBeacon = (url, data) => {
      calls++;
      return send(url, data);
    };
  });
  const calls = () => page.evaluate(() => (window as unknown as { beaconCalls: number }).beaconCalls);
  /** Waits for the nth page view to arrive, then checks that the document sent no more than n. */
  const arrived = async (n: number) => {
    await expect.poll(() => sent.length).toBe(n);
    expect(await calls()).toBe(n);
    expect([...forms]).toEqual(['POST text/plain;charset=UTF-8']);
    return sent.at(-1);
  };
  return { sent, calls, arrived };
}

/**
 * Opens a page and waits until its tracker has run: the page requests the chunk when idle, and
 * importing it once more resolves only after it has been evaluated and started.
 */
async function openAndTrack(page: Page, path: string, referer?: string) {
  const loaded = page.waitForResponse((r) => new URL(r.url()).pathname === tracker);
  await page.goto(path, { referer });
  await hydrated(page);
  await loaded;
  await page.evaluate((url) => import(url).then(() => undefined), tracker);
}

const navigate = async (page: Page, path: string) => {
  await page.locator(`header nav a[href="${path}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
};

test('one page view on load: the path, the route locale, the browser language, the screen class', async ({ page }) => {
  await notAutomated(page);
  const { arrived } = await capture(page);
  await openAndTrack(page, '/jp/area-calculator');
  expect(await arrived(1)).toEqual({ p: '/jp/area-calculator', l: 'jp', bl: 'de-DE', r: '', s: 'desktop' });
});

for (const [width, s] of [[390, 'phone'], [800, 'tablet']] as const) {
  test(`a ${width}-pixel-wide window is a ${s}`, async ({ page }) => {
    await notAutomated(page);
    await page.setViewportSize({ width, height: 800 });
    const { arrived } = await capture(page);
    await openAndTrack(page, '/faq');
    expect(await arrived(1)).toEqual({ p: '/faq', l: 'en', bl: 'de-DE', r: '', s });
  });
}

test('one page view per client-side navigation, back and forward too, none for a query change', async ({ page }) => {
  await notAutomated(page);
  const { sent, calls, arrived } = await capture(page);
  await openAndTrack(page, '/de/area-calculator');
  await arrived(1);

  // The calculator writes its inputs into the address: the same page, no new view.
  await page.locator('#area-l').fill('12,5');
  await page.locator('#area-w').fill('8');
  await expect(page).toHaveURL(/\/de\/area-calculator\?l=12\.5&w=8$/);
  expect(await calls()).toBe(1);

  await navigate(page, '/de/speed-calculator');
  await arrived(2);
  await page.goBack();
  await expect(page).toHaveURL(/\/de\/area-calculator\?l=12\.5&w=8$/);
  await arrived(3);
  await page.goForward();
  await expect(page).toHaveURL(/\/de\/speed-calculator$/);
  await arrived(4);

  expect(sent.map((v) => v.p)).toEqual(['/de/area-calculator', '/de/speed-calculator', '/de/area-calculator', '/de/speed-calculator']);
  expect(sent.every((v) => v.l === 'de' && v.bl === 'de-DE' && v.r === '' && v.s === 'desktop')).toBe(true);
});

test("the referrer's host goes with the first page view, and only from another site", async ({ page, baseURL }) => {
  await notAutomated(page);
  const { sent, calls, arrived } = await capture(page);
  await openAndTrack(page, '/fr', 'https://example.org/some/path?q=1');
  expect(await arrived(1)).toMatchObject({ p: '/fr', l: 'fr', r: 'example.org' });
  await navigate(page, '/fr/speed-calculator');
  expect(await arrived(2)).toMatchObject({ p: '/fr/speed-calculator', r: '' }); // a link of this site

  await openAndTrack(page, '/fr/faq', `${baseURL}/fr/speed-calculator`); // a full load from this site
  await expect.poll(() => sent.length).toBe(3);
  expect(sent[2]).toMatchObject({ p: '/fr/faq', r: '' });
  expect(await calls()).toBe(1); // the count starts again with the document
});

test.describe('nothing is sent', () => {
  const cases: [string, (page: Page) => Promise<unknown>][] = [
    ['from an automated browser (navigator.webdriver)', async () => {}],
    ['with Global Privacy Control', async (page) => {
      await notAutomated(page);
      await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    }],
    ['from a headless browser by its user agent', async (page) => {
      await notAutomated(page);
      await page.addInitScript(() => {
        const headless = navigator.userAgent.replace('Chrome/', 'HeadlessChrome/');
        Object.defineProperty(Navigator.prototype, 'userAgent', { get: () => headless });
      });
    }],
  ];
  for (const [name, setUp] of cases) {
    test(name, async ({ page }) => {
      await setUp(page);
      const { sent, calls } = await capture(page);
      await openAndTrack(page, '/area-calculator', 'https://example.org/');
      await navigate(page, '/speed-calculator');
      await page.goBack();
      await expect(page).toHaveURL(/\/area-calculator$/);
      expect(await calls()).toBe(0);
      expect(sent).toEqual([]);
    });
  }
});

test('reaches the real server: the view is counted in the operator’s report', async ({ page }) => {
  await notAutomated(page);
  await openAndTrack(page, '/ko/terms-conditions'); // no other test sends a view of this page
  const day = new Date().toISOString().slice(0, 10); // the server's days are UTC
  const viewsOfPage = async () => {
    const res = await page.request.get(`/api/v1/stats?from=${day}&to=${day}`, { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(res.status()).toBe(200);
    const report = (await res.json()) as { pages: { path: string; views: number }[] };
    return report.pages.find((p) => p.path === '/ko/terms-conditions')?.views ?? 0;
  };
  // Written within the ingest's one-second flush.
  await expect.poll(viewsOfPage, { timeout: 60_000 }).toBe(1);
});
