// The consent banner of an operator's tag manager, in a real browser. The default test server has
// no tag manager: there is no banner and nothing goes anywhere. Each worker starts its own
// handy with one (-tag-manager-id, and -tag-manager-host pointing at a stand-in for the tag
// manager served here, whose container sets a `_ga` cookie and counts its requests): the banner
// asks in the page's language, Accept loads the container once with Consent Mode v2 and page
// views follow client-side navigation, Reject and closing load nothing, an old answer is asked
// again, and "Cookie settings" in the footer withdraws consent, deleting the container's cookies.
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { createServer } from 'node:http';
import { expect, hydrated, namespaceMessages, test as base } from './fixtures';
import { listen, startOwnServer } from './ownServer';
import { baseURL } from './playwright.config';

type ConsentMessages = typeof import('../web/src/features/consent/locales/en.json');
const words = (code: string) => namespaceMessages<ConsentMessages>('consent', code);
const containerId = 'GTM-TEST1234';

/**
 * The stand-in tag manager: /gtm.js, which sets a cookie, notes what the page had pushed, and
 * sends a hit and a pixel to `collector`, the origin its tags report to (as GA4's go to
 * *.google-analytics.com), which the CSP allows through -tag-manager-sources.
 */
const container = (collector: string) => `(() => {
  window.containerRuns = (window.containerRuns || 0) + 1;
  window.containerSaw = Array.from(window.dataLayer || [], (e) =>
    Object.prototype.toString.call(e) === '[object Arguments]' ? { arguments: Array.from(e) } : e);
  document.cookie = '_ga=GA1.1.123456789.1700000000; path=/; max-age=63072000';
  fetch('${collector}/g/collect?en=page_view', { method: 'POST', mode: 'no-cors', keepalive: true });
  new Image().src = '${collector}/pixel.gif';
})();`;

/** A 1 × 1 transparent GIF, the collector's pixel. */
const pixel = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

interface Tagged {
  /** The origin of handy with a tag manager configured. */
  url: string;
  /** The tag manager stand-in's origin. */
  host: string;
  /** Requests the stand-in answered since the last reset. */
  requests: () => number;
  /** The paths the collector was sent since the last reset. */
  hits: () => string[];
  reset: () => void;
}

const test = base.extend<object, { tagged: Tagged }>({
  tagged: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, use) => {
      let requests = 0;
      let hits: string[] = [];
      const collectorServer = createServer((req, res) => {
        hits.push(new URL(req.url!, 'http://x').pathname);
        if (req.url === '/pixel.gif') res.writeHead(200, { 'Content-Type': 'image/gif' }).end(pixel);
        else res.writeHead(204).end();
      });
      const collector = `http://127.0.0.1:${await listen(collectorServer)}`;
      const standIn = createServer((req, res) => {
        requests++;
        const ok = req.url === `/gtm.js?id=${containerId}`;
        res.writeHead(ok ? 200 : 404, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
        res.end(ok ? container(collector) : '');
      });
      const host = `http://127.0.0.1:${await listen(standIn)}`;
      const handy = await startOwnServer(['-tag-manager-id', containerId, '-tag-manager-host', host, '-tag-manager-sources', collector]);
      const reset = () => {
        requests = 0;
        hits = [];
      };
      try {
        await use({ url: handy.url, host, requests: () => requests, hits: () => [...hits].sort(), reset });
      } finally {
        await handy.close();
        await new Promise((resolve) => standIn.close(resolve));
        await new Promise((resolve) => collectorServer.close(resolve));
      }
    },
    // Its own time: a busy machine starts handy slowly.
    { scope: 'worker', timeout: 120_000 },
  ],
});

const banner = (page: Page) => page.locator('#consent-root section.consent-banner');
const choice = (page: Page, name: string) => banner(page).locator('button.consent-choice', { hasText: name });
const cookieSettings = (page: Page) => page.locator('footer button.cookie-settings');
const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('consent') ?? 'null') as { choice: string; date: string; version: number } | null);
const containerRuns = (page: Page) => page.evaluate(() => (window as unknown as { containerRuns?: number }).containerRuns ?? 0);

/** Opens a page of the server with a tag manager and waits until its banner's chunk has run. */
async function open(page: Page, tagged: Tagged, path: string) {
  await page.goto(tagged.url + path);
  await hydrated(page);
  await expect(cookieSettings(page)).toBeVisible();
}

/**
 * Until anything that was going to be requested has been: the page has been idle with none of
 * its requests in flight and none started while it waited (a chunk's own imports, what its code
 * then fetches, each comes before the next idle moment).
 */
async function settle(page: Page) {
  let started = 0;
  const inFlight = new Set<Request>();
  const onRequest = (r: Request) => {
    started++;
    inFlight.add(r);
  };
  const onDone = (r: Request) => inFlight.delete(r);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    for (;;) {
      const before = started;
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
      if (inFlight.size === 0 && started === before) return;
    }
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

test('without a tag manager: no banner, no footer link, no request anywhere else', async ({ page, consoleErrors }) => {
  const elsewhere: string[] = [];
  page.on('request', (r) => !r.url().startsWith(baseURL) && !r.url().startsWith('data:') && elsewhere.push(r.url()));
  const res = await page.goto('/jp/area-calculator');
  await hydrated(page);
  await settle(page);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");
  expect(res?.headers()['content-security-policy']).not.toContain('http');
  expect(await page.evaluate(() => (JSON.parse(document.getElementById('handy-data')!.textContent) as { tagManager: string }).tagManager)).toBe('');
  await expect(page.locator('#consent-root')).toHaveCount(0);
  await expect(cookieSettings(page)).toHaveCount(0);
  await page.locator('header nav a[href="/jp/faq"], footer a[href="/jp/faq"]').first().click();
  await expect(page).toHaveURL(/\/jp\/faq$/);
  await settle(page);
  expect(elsewhere).toEqual([]);
  expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
  expect(consoleErrors).toEqual([]);
});

test.describe('with a tag manager', () => {
  test.beforeEach(({ tagged }) => tagged.reset());

  test('the banner asks in English; nothing is requested before Accept, the container once after, with Consent Mode v2', async ({ page, tagged, consoleErrors }) => {
    const t = words('en');
    const res = await page.goto(`${tagged.url}/`);
    const csp = res?.headers()['content-security-policy'] ?? '';
    for (const directive of ['script-src', 'connect-src', 'img-src']) {
      expect(csp.split('; ').find((d) => d.startsWith(directive))?.split(' ')).toContain(tagged.host);
    }
    expect(csp).not.toContain('unsafe-inline');
    await hydrated(page);
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toHaveAccessibleName(t.title);
    await expect(banner(page)).toContainText(t.text);
    await expect(cookieSettings(page)).toHaveText(t.settings);
    await expect(banner(page).locator('input')).toHaveCount(0); // nothing to tick, nothing ticked
    await expect(banner(page).locator('button.consent-close')).toHaveAccessibleName(t.closeReject);
    // Still nothing after a client-side navigation: the banner waits for an answer on every page.
    await page.locator('header nav a[href="/area-calculator"]').click();
    await expect(page).toHaveURL(/\/area-calculator$/);
    await expect(banner(page)).toBeVisible();
    await settle(page);
    expect(tagged.requests()).toBe(0);
    expect(tagged.hits()).toEqual([]);
    expect(await stored(page)).toBeNull();

    const beforeAccept = Date.now();
    await choice(page, t.accept).click();
    await expect(banner(page)).toBeHidden();
    await expect.poll(() => containerRuns(page)).toBe(1);
    expect(tagged.requests()).toBe(1);
    // Its tags reach the origin they report to (-tag-manager-sources): a request and a pixel.
    await expect.poll(tagged.hits).toEqual(['/g/collect', '/pixel.gif']);
    const record = await stored(page);
    expect(record).toMatchObject({ choice: 'accepted', version: 1 });
    // Dated when the choice was made: after the click began, not after now.
    expect(Date.parse(record!.date)).toBeGreaterThanOrEqual(beforeAccept);
    expect(Date.parse(record!.date)).toBeLessThanOrEqual(Date.now());
    // What the container found: the consent default (denied), the update (granted), its start.
    const denied = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' };
    const granted = { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' };
    const saw = await page.evaluate(() => (window as unknown as { containerSaw: unknown[] }).containerSaw);
    expect(saw).toEqual([
      { arguments: ['consent', 'default', { ...denied, wait_for_update: 500 }] },
      { arguments: ['consent', 'update', granted] },
      { 'gtm.start': expect.any(Number) as unknown, event: 'gtm.js' },
    ]);

    // A page view per client-side navigation; the page the container loaded on was its own.
    const pageViews = () =>
      page.evaluate(() => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.filter((e) => e.event === 'page_view'));
    expect(await pageViews()).toEqual([]);
    await page.locator('header nav a[href="/speed-calculator"]').click();
    await expect(page).toHaveURL(/\/speed-calculator$/);
    await expect.poll(pageViews).toEqual([
      {
        event: 'page_view',
        page_path: '/speed-calculator',
        page_location: `${tagged.url}/speed-calculator`,
        page_title: await page.title(),
        page_language: 'en',
      },
    ]);
    await page.locator('header nav a[href="/speed-calculator"]').click(); // the same page again: no second view
    await page.locator('footer a[href="/faq"]').click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect.poll(() => pageViews().then((v) => v.map((e) => e.page_path))).toEqual(['/speed-calculator', '/faq']);
    expect(tagged.requests()).toBe(1);

    // The next page load: no banner, the container again (one request per page load).
    await page.reload();
    await hydrated(page);
    await expect.poll(() => containerRuns(page)).toBe(1);
    await expect(banner(page)).toHaveCount(0);
    expect(tagged.requests()).toBe(2);
    expect(consoleErrors).toEqual([]);
  });

  test('a tag cannot reach an origin the operator did not name', async ({ page, tagged, consoleErrors }) => {
    let reached = 0;
    const stranger = createServer((_, res) => void (reached++, res.writeHead(204).end()));
    const origin = `http://127.0.0.1:${await listen(stranger)}`;
    try {
      await open(page, tagged, '/');
      await choice(page, words('en').accept).click();
      await expect.poll(() => containerRuns(page)).toBe(1);
      // What a tag of the container would run, from the page.
      const outcome = await page.evaluate((url) => fetch(url, { mode: 'no-cors' }).then(() => 'sent', () => 'refused'), `${origin}/collect`);
      expect(outcome).toBe('refused');
      expect(reached).toBe(0);
      expect(consoleErrors.join('\n')).toContain('Content Security Policy');
    } finally {
      await new Promise((resolve) => stranger.close(resolve));
    }
  });

  test('the banner asks in Japanese, and links to its section of the privacy policy', async ({ page, tagged, consoleErrors }) => {
    const t = words('jp');
    await open(page, tagged, '/jp/flip-image');
    await expect(banner(page)).toHaveAccessibleName(t.title);
    await expect(choice(page, t.accept)).toBeVisible();
    await expect(choice(page, t.reject)).toBeVisible();
    await expect(cookieSettings(page)).toHaveText(t.settings);
    await banner(page).getByRole('link', { name: t.policyLink }).click();
    await expect(page).toHaveURL(`${tagged.url}/jp/privacy-policy#${encodeURIComponent(t.policyAnchor)}`);
    await expect(page.locator(`main h2[id="${t.policyAnchor}"]`)).toHaveCount(1); // the section the link names
    await expect(banner(page)).toBeVisible(); // no answer yet
    // Another language, in place: the banner and the footer follow.
    await page.locator('header details.lang summary').click();
    await page.locator('header details.lang a[hreflang="ko"]').click();
    await expect(page).toHaveURL(/\/ko\/privacy-policy/);
    await expect(banner(page)).toHaveAccessibleName(words('ko').title);
    await expect(cookieSettings(page)).toHaveText(words('ko').settings);
    expect(tagged.requests()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  test('Reject in one click loads nothing, and the banner does not come back', async ({ page, tagged, consoleErrors }) => {
    const t = words('de');
    await open(page, tagged, '/de');
    await choice(page, t.reject).click();
    await expect(banner(page)).toBeHidden();
    expect(await stored(page)).toMatchObject({ choice: 'rejected', version: 1 });
    await page.reload();
    await hydrated(page);
    await expect(cookieSettings(page)).toBeVisible();
    await page.locator('header nav a[href="/de/area-calculator"]').click();
    await expect(page).toHaveURL(/\/de\/area-calculator$/);
    await settle(page);
    await expect(banner(page)).toHaveCount(0);
    expect(tagged.requests()).toBe(0);
    expect(await containerRuns(page)).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  test('closing the banner, with × or Escape, counts as Reject', async ({ browser, tagged }) => {
    for (const close of ['×', 'Escape'] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t = words('fr');
      await open(page, tagged, '/fr/faq');
      if (close === '×') {
        await banner(page).getByRole('button', { name: t.closeReject }).click();
      } else {
        await choice(page, t.accept).focus(); // Escape while the banner has the focus
        await page.keyboard.press('Escape');
      }
      await expect(banner(page)).toBeHidden();
      expect(await stored(page), close).toMatchObject({ choice: 'rejected' });
      await page.reload();
      await hydrated(page);
      await settle(page);
      await expect(banner(page)).toHaveCount(0);
      await context.close();
    }
    expect(tagged.requests()).toBe(0);
  });

  test('an answer older than six months, or of another version, is asked again', async ({ browser, tagged }) => {
    const day = 24 * 60 * 60 * 1000;
    const answers = [
      { choice: 'accepted', date: new Date(Date.now() - 184 * day).toISOString(), version: 1 },
      { choice: 'rejected', date: new Date(Date.now() - 200 * day).toISOString(), version: 1 },
      { choice: 'accepted', date: new Date(Date.now() - day).toISOString(), version: 2 },
    ];
    for (const answer of answers) {
      const context = await browser.newContext();
      await context.addInitScript((text) => localStorage.getItem('consent') ?? localStorage.setItem('consent', text), JSON.stringify(answer));
      const page = await context.newPage();
      await open(page, tagged, '/es');
      await expect(banner(page), JSON.stringify(answer)).toBeVisible();
      await context.close();
    }
    // Five months old still holds.
    const context = await browser.newContext();
    await context.addInitScript(
      (text) => localStorage.getItem('consent') ?? localStorage.setItem('consent', text),
      JSON.stringify({ choice: 'rejected', date: new Date(Date.now() - 150 * day).toISOString(), version: 1 }),
    );
    const page = await context.newPage();
    await open(page, tagged, '/es');
    await settle(page);
    await expect(banner(page)).toHaveCount(0);
    await context.close();
    expect(tagged.requests()).toBe(0);
  });

  test('Cookie settings reopens the banner, and withdrawing deletes the cookies and reloads without the container', async ({ page, tagged, consoleErrors }) => {
    const t = words('en');
    await open(page, tagged, '/faq');
    await choice(page, t.accept).click();
    await expect.poll(() => containerRuns(page)).toBe(1);
    const names = async () => (await page.context().cookies()).map((c) => c.name).sort();
    await expect.poll(names).toContain('_ga');
    expect(await names()).toContain('i18n_redirected');

    await cookieSettings(page).click();
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toBeFocused();
    await expect(banner(page).locator('.consent-status')).toContainText(t.withdrawNote);
    await expect(banner(page).locator('.consent-status')).toContainText(
      t.acceptedOn.replace('{{date}}', new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date())),
    );
    // Closing it now keeps the answer, and gives the focus back to the footer.
    await page.keyboard.press('Escape');
    await expect(banner(page)).toBeHidden();
    await expect(cookieSettings(page)).toBeFocused();
    expect(await stored(page)).toMatchObject({ choice: 'accepted' });

    await cookieSettings(page).click();
    const reloaded = page.waitForEvent('load');
    await choice(page, t.reject).click(); // one click
    await reloaded;
    await hydrated(page);
    await settle(page);
    expect(await names()).not.toContain('_ga');
    expect(await names()).toContain('i18n_redirected');
    expect(await stored(page)).toMatchObject({ choice: 'rejected' });
    expect(await containerRuns(page)).toBe(0);
    await expect(banner(page)).toHaveCount(0);
    expect(tagged.requests()).toBe(1); // the acceptance's, and none since

    // And reopened once more: the rejection and its date; Accept from here loads at once.
    await cookieSettings(page).click();
    await expect(banner(page).locator('.consent-status')).toHaveText(
      t.rejectedOn.replace('{{date}}', new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date())),
    );
    await choice(page, t.accept).click();
    await expect.poll(() => containerRuns(page)).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  test('Global Privacy Control stands for Reject: no banner, nothing loads, unless accepted from Cookie settings', async ({ browser, tagged }) => {
    const context = await browser.newContext();
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    const page = await context.newPage();
    const t = words('pt');
    await open(page, tagged, '/pt');
    await settle(page);
    await expect(banner(page)).toHaveCount(0);
    expect(tagged.requests()).toBe(0);
    expect(await stored(page)).toBeNull();
    await cookieSettings(page).click();
    await expect(banner(page).locator('.consent-status')).toHaveText(t.gpc);
    await choice(page, t.accept).click();
    await expect.poll(() => containerRuns(page)).toBe(1);
    expect(await stored(page)).toMatchObject({ choice: 'accepted' });
    await context.close();
  });

  test('Accept and Reject are the same size, side by side, and the banner leaves the footer reachable on a phone', async ({ browser, tagged }) => {
    for (const [code, width] of [['en', 1280], ['jp', 360], ['de', 360]] as const) {
      const context = await browser.newContext({ viewport: { width, height: 640 } });
      const page = await context.newPage();
      const t = words(code);
      await open(page, tagged, code === 'en' ? '/' : `/${code}`);
      const accept = await choice(page, t.accept).boundingBox();
      const reject = await choice(page, t.reject).boundingBox();
      expect(accept && reject, code).toBeTruthy();
      expect(reject!.width, code).toBe(accept!.width);
      expect(reject!.height, code).toBe(accept!.height);
      expect(reject!.y, code).toBe(accept!.y);
      const look = (name: string) => choice(page, name).evaluate((b) => {
        const s = getComputedStyle(b);
        return [b.className, s.backgroundColor, s.color, s.fontSize, s.fontWeight, s.borderColor].join(' ');
      });
      expect(await look(t.reject), code).toBe(await look(t.accept));
      // Scrolled to the end, "Cookie settings" is above the banner, not under it.
      await cookieSettings(page).scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const link = (await cookieSettings(page).boundingBox())!;
      const top = (await banner(page).boundingBox())!.y;
      expect(link.y + link.height, code).toBeLessThanOrEqual(top);
      await context.close();
    }
  });

  test('the banner is last in the keyboard order, Shift+Tab from the top away, and has no axe violations, light and dark', async ({ page, tagged }) => {
    const t = words('en');
    await open(page, tagged, '/area-calculator');
    await page.keyboard.press('Tab');
    await expect(page.locator('.skip-link')).toBeFocused(); // the skip link stays first
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(banner(page).getByRole('button', { name: t.closeReject })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(choice(page, t.reject)).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(choice(page, t.accept)).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(banner(page).getByRole('link', { name: t.policyLink })).toBeFocused();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    }
    expect(tagged.requests()).toBe(0);
  });
});
