// Islands (page/Island.tsx, app/islands.ts): only the interactive parts of a page hydrate, each
// its own root. Checked here: no hydration mismatch on any of the 56 pages, static content never
// inside a root, every island alive after a first load and after a client-side navigation, a
// click made before its island hydrated taking effect, and no layout shift (CLS 0) on each page
// type, in both themes, after the language redirect and with an account signed in.
import type { Page, Route } from '@playwright/test';
import { closeDialog, dialog, signUp, uniqueEmail } from './accounts';
import { expect, hydrated, messages, namespaceMessages, routes, site, test } from './fixtures';

type CalcMessages = typeof import('../web/src/calculator/locales/en.json');
const calc = namespaceMessages<CalcMessages>('calculator', 'en');
const en = messages('en');
const themeLabel = (choice: 'auto' | 'light' | 'dark') => `${en.theme.label}: ${en.theme[choice]}`;

/** The islands a page places, in document order. */
const islandsOf = (page: Page) => page.locator('[data-island]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.island));

const header = ['theme', 'history', 'account'];
const toolIsland: Record<string, string> = { 'area-calculator': 'area', 'speed-calculator': 'speed', 'flip-image': 'flip' };

/** Collects warnings and errors that name hydration, as React reports a mismatch. */
function hydrationMessages(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'warning' || m.type() === 'error') && /hydrat|did not match|recoverable/i.test(m.text())) found.push(m.text());
  });
  return found;
}

test('every one of the 56 pages hydrates its islands only, without a mismatch', async ({ page }) => {
  test.setTimeout(600_000);
  const mismatches = hydrationMessages(page);
  for (const { page: p, path } of routes) {
    await page.goto(path);
    await hydrated(page);
    const tool = toolIsland[p.name];
    expect(await islandsOf(page), path).toEqual(tool ? [...header, tool] : header);
    // Static content is in no island: the heading, the prose, the footer.
    expect(await page.locator('[data-island] h1, [data-island] .prose, [data-island] footer').count(), path).toBe(0);
  }
  expect(mismatches).toEqual([]);
});

test('an informational page preloads nothing, and a tool page only what hydrates at load', async ({ request }) => {
  const preloads = async (path: string) =>
    [...(await (await request.get(path)).text()).matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  for (const path of ['/', '/faq', '/jp/privacy-policy', '/terms-conditions']) expect(await preloads(path), path).toEqual([]);
  const tool = (await preloads('/area-calculator')).join(' ');
  expect(tool).toContain('/assets/live-'); // React and what hydrates islands
  expect(tool).toContain('/assets/area-'); // the tool's island
  expect(tool).not.toContain('/assets/runtime-'); // the runtime comes at idle
});

test('every island works after a first load and after a client-side navigation', async ({ page }) => {
  const documents: string[] = [];
  page.on('request', (r) => r.resourceType() === 'document' && documents.push(new URL(r.url()).pathname));
  await page.goto('/faq');
  await hydrated(page);
  const check = async () => {
    // The header's three.
    const theme = page.locator('.theme-switch');
    const before = await theme.getAttribute('aria-label');
    await theme.click();
    await expect(theme).not.toHaveAttribute('aria-label', before!);
    await page.locator('header .history-button').click();
    await expect(page.locator('dialog.history-dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog.history-dialog')).toBeHidden();
    await page.locator('header .account-button').click();
    await expect(dialog(page)).toBeVisible();
    await closeDialog(page);
  };
  await check();
  // A client-side navigation to a tool: its island is alive, the header's still are.
  await page.locator('header nav a[href="/area-calculator"]').click();
  await expect(page).toHaveURL(/\/area-calculator$/);
  await page.locator('#area-l').fill('3');
  await page.locator('#area-w').fill('4');
  await expect(page.locator('.result-main output')).toContainText('12');
  await expect(page.getByRole('button', { name: calc.saveToHistory })).toBeEnabled();
  await check();
  await page.locator('header nav a[href="/speed-calculator"]').click();
  await expect(page).toHaveURL(/\/speed-calculator$/);
  await expect(page.locator('[data-island="speed"] input').first()).toBeEditable();
  await expect(page.locator('[data-island="area"]')).toHaveCount(0);
  await page.goBack();
  await expect(page.locator('#area-l')).toBeEditable();
  await page.locator('#area-l').fill('5');
  await page.locator('#area-w').fill('2');
  await expect(page.locator('.result-main output')).toContainText('10');
  expect(documents).toEqual(['/faq']);
});

/** Holds the chunk that brings islands alive until release is called. */
async function holdIslands(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/live-[^/]+\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('a click on a control before its island hydrated takes effect', async ({ page }) => {
  const release = await holdIslands(page);
  await page.goto('/privacy-policy', { waitUntil: 'domcontentloaded' });
  const theme = page.locator('.theme-switch');
  await expect(theme).toHaveAttribute('aria-label', themeLabel('auto'));
  await theme.click();
  await page.locator('header .history-button').click();
  // Nothing is alive yet: the clicks are held.
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
  await expect(theme).toHaveAttribute('aria-label', themeLabel('auto'));
  release();
  // Each click then happened: the theme moved on once, and the history opened.
  await expect(theme).toHaveAttribute('aria-label', themeLabel('light'));
  await expect(page.locator('dialog.history-dialog')).toBeVisible();
  await hydrated(page);
});

test('values typed into a tool before it hydrated are kept and computed', async ({ page }) => {
  const release = await holdIslands(page);
  await page.goto('/area-calculator', { waitUntil: 'domcontentloaded' });
  await page.locator('#area-l').pressSequentially('3');
  await page.locator('#area-w').pressSequentially('4');
  release();
  await hydrated(page);
  await expect(page.locator('#area-l')).toHaveValue('3');
  await expect(page.locator('.result-main output')).toContainText('12');
});

/** The page's cumulative layout shift, from a PerformanceObserver installed before it loads:
 * the shifts without recent input, as the metric counts them. */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: { value: number; sources: string[] }[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
        if (e.hadRecentInput) continue;
        const sources = (e.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName)));
        w.shifts.push({ value: e.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Loads path, waits until it is live and settled (the network quiet, or what settled says),
 * and returns its shifts. */
async function shiftsOf(page: Page, path: string, settled?: () => Promise<void>) {
  await page.goto(path);
  await hydrated(page);
  if (settled) await settled();
  else await page.waitForLoadState('networkidle');
  // Two frames more: a shift is reported with the frame that shows it.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => (window as unknown as { shifts: { value: number; sources: string[] }[] }).shifts);
}

const pageTypes = site.pages.map((p) => p.name);

test('no layout shift on any page type, in either theme and in English and Japanese', async ({ page }) => {
  test.setTimeout(600_000);
  await watchShifts(page);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const code of ['en', 'jp']) {
      for (const name of pageTypes) {
        const path = routes.find((r) => r.page.name === name && r.locale.code === code)!.path;
        expect(await shiftsOf(page, path), `${colorScheme} ${path}`).toEqual([]);
      }
    }
  }
});

test('no layout shift after the language redirect', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'ja-JP' });
  const page = await context.newPage();
  await watchShifts(page);
  const shifts = await shiftsOf(page, '/');
  await expect(page).toHaveURL(/\/jp$/);
  expect(shifts).toEqual([]);
  await context.close();
});

test('no layout shift with an account signed in', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await hydrated(page);
  await signUp(page, uniqueEmail('islands'), 'Ada Lovelace-Byron');
  await closeDialog(page);
  await watchShifts(page);
  for (const name of pageTypes) {
    const path = routes.find((r) => r.page.name === name && r.locale.code === 'en')!.path;
    // The network is never quiet (the history's listen waits for changes): settled is when the
    // header names the account, once the session is confirmed.
    const shifts = await shiftsOf(page, path, () => expect(page.locator('header .account-button')).toContainText('Ada'));
    expect(shifts, path).toEqual([]);
  }
});
