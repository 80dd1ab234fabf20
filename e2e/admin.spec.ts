// The operator's dashboard (/admin, /{code}/admin) against the real server, which the test
// config starts with an admin token: the token form, the report of page views this file sends
// through the real beacon endpoint, the range (shortcuts, dates, back and forward), the chart by
// keyboard, the CSV, the token forgotten, Japanese, a phone's width, and axe in both themes.
// Serial: the views are sent once, and the other tests count on them.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, hydrated, namespaceMessages, overflowing, routes, test } from './fixtures';
import { adminToken } from './playwright.config';
import type en from '../web/src/features/admin/locales/en.json';

test.describe.configure({ mode: 'serial' });

type AdminMessages = typeof en;
const t = namespaceMessages<AdminMessages>('admin', 'en');
const jp = namespaceMessages<AdminMessages>('admin', 'jp');

// A referrer and a page no other test sends, so that their counts are this file's alone.
const referrer = 'dashboard-e2e.example';
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

test.beforeAll(async ({ request }) => {
  // Five views from other sites: three of the Korean FAQ on a tablet, two of the home page. And
  // one of the site's longest path, from a long referrer in a long language tag, for the phone.
  const longest = routes.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  const views = [
    ...Array.from({ length: 3 }, () => ({ p: '/ko/faq', l: 'ko', bl: 'ko-KR', r: referrer, s: 'tablet' })),
    ...Array.from({ length: 2 }, () => ({ p: '/', l: 'en', bl: 'en-GB', r: referrer, s: 'desktop' })),
    { p: longest.path, l: longest.locale.code, bl: 'zh-Hant-TW', r: 'a-long-referring-site-name-without-spaces.example', s: 'phone' },
  ];
  for (const v of views) {
    const res = await request.post('/api/v1/pageviews', {
      data: JSON.stringify(v),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': chrome, 'Accept-Language': 'en-GB' },
    });
    expect(res.status()).toBe(204);
  }
});

async function signIn(page: Page, path = '/admin') {
  const m = path.startsWith('/jp/') ? jp : t;
  await page.goto(path);
  await hydrated(page);
  await page.getByLabel(m.token.label, { exact: true }).fill(adminToken);
  await page.getByRole('button', { name: m.token.submit }).click();
  await expect(page.locator('.admin-totals')).toBeVisible();
}

/** The row of a top list, by its list's title and the row's name. */
const row = (page: Page, list: string, name: string) =>
  page.locator('.admin-top', { has: page.getByRole('heading', { name: list }) }).getByRole('row', { name: new RegExp(name) });

test('a page of its own: not indexed, and nothing but the token form before the token', async ({ page }) => {
  const res = await page.goto('/admin');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['x-robots-tag']).toBe('noindex, nofollow');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
  await expect(page.getByRole('heading', { name: t.token.heading })).toBeVisible();
  await expect(page.locator('.admin-totals')).toHaveCount(0);
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  expect(sitemap).not.toContain('admin');
});

test('a wrong token is refused, said so, and not kept', async ({ page }) => {
  await page.goto('/admin');
  await hydrated(page);
  const field = page.getByLabel(t.token.label, { exact: true });
  await page.getByRole('button', { name: t.token.submit }).click();
  await expect(page.getByText(t.token.empty)).toBeVisible();
  await field.fill('not-the-token-not-the-token-not-the-token');
  await page.getByRole('button', { name: t.token.submit }).click();
  await expect(page.getByText(t.token.refused)).toBeVisible();
  await expect(page.getByLabel(t.token.label, { exact: true })).toBeFocused();
  expect(await page.evaluate(() => sessionStorage.getItem('handy-admin-token'))).toBeNull();
});

test('the report: totals, the views sent, top lists by name; the token lasts the tab', async ({ page }) => {
  await signIn(page);
  // The ingest writes within a second: refresh until this file's views are in.
  await expect(async () => {
    await page.getByRole('button', { name: t.status.refresh }).click();
    await expect(row(page, t.lists.referrers, referrer)).toContainText('5', { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await expect(row(page, t.lists.pages, '/ko/faq')).toBeVisible();
  await expect(row(page, t.lists.locales, '한국어')).toBeVisible();
  await expect(row(page, t.lists.languages, 'Korean')).toBeVisible();
  await expect(row(page, t.lists.screens, t.screens.tablet)).toBeVisible();
  const views = Number((await page.locator('.admin-totals dd').first().textContent())!.replace(/\D/g, ''));
  expect(views).toBeGreaterThanOrEqual(5);
  await expect(page.locator('.admin-status')).toContainText(t.status.updated.split('{{')[0].trim());

  await page.reload();
  await hydrated(page);
  await expect(page.locator('.admin-totals')).toBeVisible(); // no token asked again in this tab
  await page.getByRole('button', { name: t.signOut }).click();
  await expect(page.getByRole('heading', { name: t.token.heading })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('handy-admin-token'))).toBeNull();
});

test('the range: shortcuts and dates in the address, back and forward, a wrong range explained', async ({ page }) => {
  await signIn(page);
  const last30 = page.getByRole('button', { name: t.range.last.replace('{{count}}', '30') });
  await expect(last30).toHaveAttribute('aria-pressed', 'true');
  const asked = page.waitForRequest((r) => r.url().includes('/api/v1/stats') && r.url().includes(`from=${daysBefore(364)}`));
  await page.getByRole('button', { name: t.range.last.replace('{{count}}', '365') }).click();
  await asked;
  await expect(page).toHaveURL(new RegExp(`\\?from=${daysBefore(364)}&to=${today()}$`));
  await expect(page.getByLabel(t.range.from, { exact: true })).toHaveValue(daysBefore(364));
  await page.goBack();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(last30).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel(t.range.from, { exact: true })).toHaveValue(daysBefore(29));

  // The end before the start: said, and nothing asked of the server.
  let requests = 0;
  page.on('request', (r) => void (r.url().includes('/api/v1/stats') && requests++));
  await page.getByLabel(t.range.from, { exact: true }).fill(today());
  await page.getByLabel(t.range.to, { exact: true }).fill(daysBefore(3));
  await page.getByRole('button', { name: t.range.apply, exact: true }).click();
  await expect(page.getByText(t.range.fromAfterTo)).toBeVisible();
  expect(requests).toBe(0);

  await page.getByLabel(t.range.from, { exact: true }).fill(daysBefore(3));
  await page.getByLabel(t.range.to, { exact: true }).fill(daysBefore(1));
  await page.getByRole('button', { name: t.range.apply, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?from=${daysBefore(3)}&to=${daysBefore(1)}$`));
  await expect(page.getByText(t.range.fromAfterTo)).toHaveCount(0);
  for (const n of [7, 30, 90, 365]) {
    await expect(page.getByRole('button', { name: t.range.last.replace('{{count}}', String(n)) })).toHaveAttribute('aria-pressed', 'false');
  }
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel(t.range.to, { exact: true })).toHaveValue(daysBefore(1));
});

test('the chart by keyboard, the numbers per day, and the CSV', async ({ page }) => {
  await signIn(page);
  const plot = page.locator('.admin-plot');
  await expect(plot).toHaveAttribute('aria-label', /page views/);
  const readout = page.locator('.admin-readout');
  const day = (iso: string) => new Intl.DateTimeFormat('en', { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  await plot.focus();
  await page.keyboard.press('Home');
  await expect(readout).toContainText(day(daysBefore(29)));
  await page.keyboard.press('ArrowRight');
  await expect(readout).toContainText(day(daysBefore(28)));
  await page.keyboard.press('End');
  await expect(readout).toContainText(day(today()));
  await expect(readout).toContainText(/\d+ views/);

  await page.getByText(t.chart.table).click();
  await expect(page.locator('.admin-days tbody tr')).toHaveCount(30);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: t.csv.download }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`handy-stats-${daysBefore(29)}-to-${today()}.csv`);
  const csv = readFileSync(await file.path(), 'utf8').trim().split('\n');
  expect(csv[0]).toBe('day,views,visitors,bots');
  expect(csv).toHaveLength(31);
});

test('in Japanese, and the language switch keeps the range', async ({ page }) => {
  await signIn(page, `/jp/admin?from=${daysBefore(10)}&to=${daysBefore(2)}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(jp.title);
  await expect(page.getByRole('heading', { name: jp.chart.heading })).toBeVisible();
  await page.locator('.lang summary').click();
  await expect(page.locator('.lang-list a[hreflang="de"]')).toHaveAttribute('href', `/de/admin?from=${daysBefore(10)}&to=${daysBefore(2)}`);
  await expect(page.locator('.lang-list a[hreflang="en"]')).toHaveAttribute('href', `/admin?from=${daysBefore(10)}&to=${daysBefore(2)}`);
});

test('a phone: nothing wider than the screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, '/jp/admin');
  await page.getByRole('button', { name: jp.range.last.replace('{{count}}', '365') }).click();
  await expect(page.locator('.admin-report')).toHaveAttribute('aria-busy', 'false');
  expect(await overflowing(page, 360)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`no axe violations, ${scheme}: the token form and the report, in English and Japanese`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of ['/admin', '/jp/admin']) {
      await page.goto(path);
      await hydrated(page);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    }
    await signIn(page, '/jp/admin');
    await page.getByText(jp.chart.table).click();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.getByRole('button', { name: jp.signOut }).click();
    await signIn(page, '/admin');
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
