// The informational pages and the site's look: every page in every language has its content and
// no English left behind (outside e2e/allow-english.json), the FAQ accordion works by keyboard
// and its structured data matches it, the privacy policy names every cookie and storage key the
// product uses, and the theme switch.
import type { Page } from '@playwright/test';
import allowEnglish from './allow-english.json' with { type: 'json' };
import { expect, failChunkUntilReload, hydrated, messages, pagePath, routes, site, test } from './fixtures';

/** The visible text blocks of a page (header, main, footer), each trimmed, without code. */
async function textBlocks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    const blocks: string[] = [];
    const selector = 'h1, h2, h3, p, li, td, th, summary, label, button, a, option, dt, dd, caption, legend';
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      // Language names in the switcher are in their own language on purpose.
      if (el.closest('[lang]')?.getAttribute('lang') !== pageLang) continue;
      if (el.closest('[hidden], script, template')) continue;
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('code, kbd, svg').forEach((c) => c.remove());
      // Only the element's own words: nested blocks are checked on their own.
      copy.querySelectorAll(selector).forEach((c) => c.remove());
      const text = copy.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      if (text) blocks.push(text);
    }
    return blocks;
  });
}

/** Whether a text has words in it (not only numbers, symbols, units or names). */
const hasWords = (text: string) =>
  /\p{L}{3,}/u.test(text.replace(/\S+@\S+/g, '').replace(/\b(?:JPEG|PNG|WebP|GIF|BMP|AVIF|SVG|EXIF|ZIP|GPS|Handy Tools)\b/g, ''));

test.describe('every page has its own language', () => {
  const english = new Map<string, Set<string>>();

  for (const { locale, page: p, path } of routes) {
    test(`${p.name}___${locale.code}`, async ({ page, browser }) => {
      await page.goto(path);
      await hydrated(page);
      const blocks = await textBlocks(page);
      expect(blocks.length, 'text blocks').toBeGreaterThan(10);
      // No message key or placeholder shown instead of text.
      for (const b of blocks) {
        expect(b, 'a message key').not.toMatch(/^[a-z]+(?:\.[a-zA-Z-]+)+$/);
        expect(b, 'a placeholder').not.toMatch(/\{\{|%%[A-Z_]+%%|handy\.invalid|TODO|undefined|NaN/);
      }
      if (locale.code === site.defaultLocale) return;
      let en = english.get(p.name);
      if (!en) {
        // A context of its own: this one's language cookie would send / to this language.
        const context = await browser.newContext();
        const other = await context.newPage();
        await other.goto(pagePath(p.name, site.defaultLocale));
        await hydrated(other);
        en = new Set((await textBlocks(other)).filter(hasWords));
        english.set(p.name, en);
        await context.close();
      }
      const allowed = new Set([...allowEnglish.everywhere, ...((allowEnglish.byLocale as Record<string, string[]>)[locale.code] ?? [])]);
      const leftovers = blocks.filter((b) => en.has(b) && !allowed.has(b));
      expect(leftovers, 'English text on a page in another language').toEqual([]);
    });
  }
});

test.describe('the home page', () => {
  test('shows the tools with pictures, why the site is different, and questions from the FAQ', async ({ page }) => {
    const t = messages('jp');
    await page.goto('/jp');
    await expect(page.locator('main .tool-card svg.tool-icon')).toHaveCount(3);
    await expect(page.locator('main .reasons li')).toHaveCount(4);
    await expect(page.locator('main .reasons')).toContainText(t.home.why.private.title);
    const teaser = page.locator('main .faq-teaser a');
    await expect(teaser).toHaveCount(3);
    const href = await teaser.first().getAttribute('href');
    expect(href).toMatch(/^\/jp\/faq#.+/);
    await teaser.first().click();
    await expect(page).toHaveURL(/\/jp\/faq#/);
    await expect(page.locator(`details[id="${href!.split('#')[1]}"]`)).toHaveAttribute('open', '');
  });
});

test.describe('the FAQ', () => {
  test('opens and closes by keyboard, and a link opens its question', async ({ page }) => {
    await page.goto('/faq');
    await hydrated(page);
    const items = page.locator('details.faq-item');
    expect(await items.count()).toBeGreaterThanOrEqual(12);
    // Tab from the top of the main content to the first question.
    await page.locator('main').focus();
    await page.keyboard.press('Tab');
    const first = items.first();
    await expect(first.locator('summary')).toBeFocused();
    await expect(first.locator('.faq-answer')).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(first).toHaveAttribute('open', '');
    await expect(first.locator('.faq-answer')).toBeVisible();
    await page.keyboard.press('Tab'); // into the answer's links or on to the next question
    await page.keyboard.press('Shift+Tab');
    await expect(first.locator('summary')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(first).not.toHaveAttribute('open', '');

    const id = await items.nth(5).getAttribute('id');
    await page.goto(`/faq#${id}`);
    await hydrated(page);
    await expect(items.nth(5)).toHaveAttribute('open', '');
  });

  for (const { code } of site.locales) {
    test(`its FAQPage structured data matches the page in ${code}`, async ({ page }) => {
      await page.goto(pagePath('faq', code));
      const found = await page.evaluate(() => {
        const text = (html: string) => {
          const div = document.createElement('div');
          div.innerHTML = html;
          return div.textContent.replace(/\s+/g, ' ').trim();
        };
        const scripts = [...document.querySelectorAll('script[type="application/ld+json"]')];
        const data = JSON.parse(scripts[0].textContent) as {
          '@type': string;
          '@context': string;
          mainEntity: { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
        };
        const shown = [...document.querySelectorAll('details.faq-item')].map((d) => ({
          question: d.querySelector('summary')!.textContent.trim(),
          answer: d.querySelector('.faq-answer')!.textContent.replace(/\s+/g, ' ').trim(),
        }));
        return {
          count: scripts.length,
          type: data['@type'],
          context: data['@context'],
          data: data.mainEntity.map((q) => ({
            types: `${q['@type']}/${q.acceptedAnswer['@type']}`,
            question: q.name,
            answer: text(q.acceptedAnswer.text),
          })),
          shown,
        };
      });
      expect(found.count).toBe(1);
      expect(found.context).toBe('https://schema.org');
      expect(found.type).toBe('FAQPage');
      expect(found.data.length).toBeGreaterThanOrEqual(12);
      expect(found.data.map((d: { types: string }) => d.types)).toEqual(found.data.map(() => 'Question/Answer'));
      expect(found.data.map(({ question, answer }: { question: string; answer: string }) => ({ question, answer }))).toEqual(found.shown);
    });
  }
});

test.describe('the privacy policy', () => {
  /** Names the policy gives to cookies and storage (its code spans); "x…" names a prefix. */
  async function namedInPolicy(page: Page, code: string): Promise<string[]> {
    await page.goto(pagePath('privacy-policy', code));
    return page.locator('main .prose code').allTextContents();
  }
  const covered = (key: string, names: string[]) =>
    names.some((n) => n === key || ((n.endsWith('…') || n.endsWith('...')) && key.startsWith(n.replace(/(…|\.\.\.)$/, ''))));

  test('names every cookie and storage key the product uses, in every language', async ({ browser }) => {
    // The service worker allowed (the config blocks it): its caches are storage too.
    const context = await browser.newContext({ locale: 'de-DE', serviceWorkers: 'allow' });
    const page = await context.newPage();
    // A visit that touches everything an anonymous visitor can: the language redirect and the
    // switcher (cookie), the service worker keeping the language for offline use (Cache
    // Storage), the theme switch (localStorage), the tools, and (below) a failed island chunk,
    // which reloads once under the reload guard (sessionStorage).
    await page.goto('/');
    await hydrated(page);
    await page.locator('header details.lang summary').click();
    await page.locator('header details.lang a[hreflang="ja"]').click();
    await expect(page).toHaveURL(/\/jp$/);
    await hydrated(page);
    const keptOffline = () => page.evaluate(async () => (await caches.match('/_offline/jp.html')) !== undefined);
    await expect.poll(keptOffline, { timeout: 60_000 }).toBe(true);
    await page.locator('header .theme-switch').click();
    for (const name of ['flip-image', 'area-calculator', 'speed-calculator', 'faq', 'terms-conditions']) {
      await page.goto(pagePath(name, 'jp'));
      await hydrated(page);
    }
    // A result saved to the history (IndexedDB, and the badge's count in localStorage).
    await page.goto(`${pagePath('area-calculator', 'jp')}?l=2&w=3`);
    await hydrated(page);
    await page.locator('.result-actions button').first().click();
    await expect(page.locator('.history-button .badge')).toBeVisible();

    const used = await page.evaluate(async () => ({
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      databases: ((await indexedDB.databases?.()) ?? []).map((d) => d.name ?? ''),
      caches: await caches.keys(),
    }));
    const cookies = (await context.cookies()).map((c) => c.name);

    // The failed chunk, in a context of its own with the worker blocked: page.route never sees
    // a chunk that the worker answers from its cache.
    const blocked = await browser.newContext({ locale: 'de-DE' });
    const guarded = await blocked.newPage();
    await failChunkUntilReload(guarded, 'speed', pagePath('speed-calculator', 'jp'));
    await guarded.goto(pagePath('terms-conditions', 'jp'));
    await hydrated(guarded);
    await guarded.locator(`header nav a[href="${pagePath('speed-calculator', 'jp')}"]`).click();
    await expect(guarded).toHaveURL(/\/jp\/speed-calculator$/);
    await hydrated(guarded);
    used.session.push(...(await guarded.evaluate(() => Object.keys(sessionStorage))));
    await blocked.close();

    // The visit really touched each kind of storage the test can see.
    expect(cookies).toContain('i18n_redirected');
    expect(used.local).toContain('theme');
    expect(used.session.some((k) => k.startsWith('handy:reload:'))).toBe(true);
    expect(used.databases).toContain('handy-history');
    expect(used.local).toContain('handy:history:unseen');
    expect(used.caches.some((k) => k.startsWith('handy-'))).toBe(true);

    const keys = [...cookies, ...used.local, ...used.session, ...used.databases, ...used.caches];
    for (const { code } of site.locales) {
      const names = await namedInPolicy(page, code);
      expect(keys.filter((k) => !covered(k, names)), `keys the ${code} privacy policy does not name`).toEqual([]);
      // And the ones DESIGN.md gives accounts and consent, before they ship, the cache of
      // images shared to the installed app, which only a share creates, and the flipper's
      // choice for several images, which only that choice stores.
      const unseen = ['XSRF-TOKEN', 'token', 'consent', 'handy', 'shared-images', 'handy:flip:scope'];
      expect(unseen.filter((k) => !covered(k, names)), code).toEqual([]);
    }
    await context.close();
  });

  test('shows the operator\'s contact address, and the terms the default governing law', async ({ page }) => {
    await page.goto('/de/privacy-policy');
    const mail = page.locator('main .prose a[href^="mailto:"]').first();
    await expect(mail).toHaveText('privacy@127.0.0.1');
    await expect(mail).toHaveAttribute('href', 'mailto:privacy@127.0.0.1');
    await page.goto('/de/terms-conditions');
    await expect(page.locator('main')).not.toContainText('%%');
  });
});

test.describe('the theme', () => {
  test('follows the device, and the switch chooses light or dark for every page', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/ko/area-calculator');
    await hydrated(page);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    expect(dark).not.toBe('rgb(255, 255, 255)');
    const t = messages('ko');
    const toggle = page.locator('header .theme-switch');
    await expect(toggle).toHaveAccessibleName(`${t.theme.label}: ${t.theme.auto}`);
    await toggle.click(); // light, against the device's dark setting
    await expect(toggle).toHaveAccessibleName(`${t.theme.label}: ${t.theme.light}`);
    expect(await background()).toBe('rgb(255, 255, 255)');
    // A new page opens light from its first paint: the head script applied it before any module.
    await page.goto('/ko/faq');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    await hydrated(page);
    await toggle.click(); // dark
    expect(await background()).toBe(dark);
    await toggle.click(); // automatic: the device's dark again, and nothing stored
    await expect(toggle).toHaveAccessibleName(`${t.theme.label}: ${t.theme.auto}`);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(await background()).toBe(dark);
  });
});
