// The root redirect, the language cookie and the switcher, in a real browser.
import { expect, messages, test, hydrated } from './fixtures';

test('the root follows the browser language and remembers it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-CH' });
  const page = await context.newPage();
  const response = await page.goto('/');
  expect(new URL(page.url()).pathname).toBe('/de');
  expect(response?.request().redirectedFrom()?.url()).toMatch(/\/$/);
  const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
  expect(cookie).toMatchObject({ value: 'de', path: '/', sameSite: 'Lax' });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  await context.close();
});

test('Japanese browsers land on /jp; unknown languages on English', async ({ browser }) => {
  for (const [lang, path] of [
    ['ja-JP', '/jp'],
    ['zh-TW', '/zh'],
    ['sv-SE', '/'],
  ]) {
    const context = await browser.newContext({ locale: lang });
    const page = await context.newPage();
    await page.goto('/');
    expect(new URL(page.url()).pathname, lang).toBe(path);
    await context.close();
  }
});

test('a deep link is never redirected, whatever the browser language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'ko-KR' });
  const page = await context.newPage();
  await page.goto('/faq');
  expect(new URL(page.url()).pathname).toBe('/faq');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await context.close();
});

test('the switcher keeps the page and the query, and / then leads to the chosen language', async ({ page, context }) => {
  await page.goto('/area-calculator?shape=circle&r=2');
  await hydrated(page);
  const switcher = page.locator('header details.lang');
  await switcher.locator('summary').click();
  const german = switcher.locator('a[hreflang="de"]');
  await expect(german).toHaveAttribute('href', '/de/area-calculator?shape=circle&r=2');
  await german.click();
  await expect(page).toHaveURL(/\/de\/area-calculator\?shape=circle&r=2$/);
  await expect(page.locator('h1')).toHaveText(messages('de').pages['area-calculator'].heading);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveTitle(messages('de').pages['area-calculator'].title);
  await expect(switcher).not.toHaveAttribute('open');
  // Another language is a full load: the new page remembers its language once it is live.
  await hydrated(page);
  expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('de');

  await page.goto('/');
  expect(new URL(page.url()).pathname).toBe('/de');
});

test('the switcher works by keyboard alone', async ({ page }) => {
  await page.goto('/jp/faq');
  await hydrated(page);
  await page.locator('header details.lang summary').focus();
  await page.keyboard.press('Enter');
  await page.locator('header details.lang a[hreflang="ko"]').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/ko\/faq$/);
  await expect(page.locator('h1')).toHaveText(messages('ko').pages.faq.heading);
});
