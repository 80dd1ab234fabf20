// Every one of the 56 URLs: status, language, head, one h1, header and footer links, no console
// errors and no axe violations in either theme.
import AxeBuilder from '@axe-core/playwright';
import { baseURL } from './playwright.config';
import { expect, messages, pagePath, routes, site, test, hydrated } from './fixtures';

for (const { locale, page: p, path } of routes) {
  test(`${p.name}___${locale.code} at ${path}`, async ({ page, consoleErrors }) => {
    const t = messages(locale.code);
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', locale.lang);
    await expect(page).toHaveTitle(t.pages[p.name as keyof Messages['pages']].title);

    const head = page.locator('head');
    await expect(head.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      t.pages[p.name as keyof Messages['pages']].description,
    );
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', baseURL + path);
    const alternates = await head.locator('link[rel="alternate"][hreflang]').evaluateAll((links) =>
      links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]),
    );
    expect(alternates).toEqual([
      ...site.locales.map((l) => [l.lang, baseURL + pagePath(p.name, l.code)]),
      ['x-default', baseURL + p.path],
    ]);
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute('content', baseURL + path);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', await page.title());

    await expect(page.locator('h1')).toHaveCount(1);
    for (const tool of site.pages.filter((x) => x.nav === 'tool')) {
      await expect(page.locator(`header nav a[href="${pagePath(tool.name, locale.code)}"]`)).toHaveCount(1);
    }
    for (const info of site.pages.filter((x) => x.nav === 'footer')) {
      await expect(page.locator(`footer a[href="${pagePath(info.name, locale.code)}"]`)).toHaveCount(1);
    }
    await expect(page.locator('header details.lang a[hreflang]')).toHaveCount(site.locales.length);
    if (p.name === 'index') {
      await expect(page.locator('main .card')).toHaveCount(3);
      await expect(page.locator('main .card p').first()).toHaveText(t.pages['flip-image'].card);
    }

    // Hydrated, then checked as a visitor would meet it, in the light and the dark theme.
    await hydrated(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    }
    expect(consoleErrors).toEqual([]);
  });
}

test('pages are readable without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/jp/speed-calculator');
  await expect(page.locator('h1')).toHaveText(messages('jp').pages['speed-calculator'].heading);
  await expect(page.locator('footer')).toContainText(messages('jp').pages.faq.label);
  await context.close();
});

type Messages = import('./fixtures').Messages;

