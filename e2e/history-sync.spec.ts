// A signed-in visitor's history, synced through the real server between devices (browser
// contexts) and tabs: the device's history kept at sign-up, a save on one device shown on the
// other, three saves while the API is unreachable that survive a reload and go out on their own
// once it answers, two tabs of one device, and a sign-out (or a deletion) that leaves nothing of
// the account in IndexedDB; preferences changed while the API is unreachable, kept across a
// reload and then sent to the other device.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { closeDialog, dialog, openDialog, password, settle, signIn, signUp, uniqueEmail } from './accounts';
import { expect, hydrated, messages, namespaceMessages, test } from './fixtures';

type HistoryMessages = typeof import('../web/src/features/history/locales/en.json');
type CalcMessages = typeof import('../web/src/calculator/locales/en.json');
type AccountMessages = typeof import('../web/src/features/account/locales/en.json');
const h = namespaceMessages<HistoryMessages>('history', 'en');
const calc = namespaceMessages<CalcMessages>('calculator', 'en');
const m = namespaceMessages<AccountMessages>('account', 'en');

const panel = (page: Page) => page.locator('dialog.history-dialog');
const entries = (page: Page) => panel(page).locator('.history-entry');

async function open(page: Page, path = '/area-calculator') {
  await page.goto(path);
  await hydrated(page);
}

/** Saves a rectangle's area from the area calculator on screen. */
const badge = (page: Page) => page.locator('.history-button .badge [aria-hidden]');

/**
 * Saves l × w and waits until the save is stored: the badge counts it once it is (the status
 * line alone cannot tell, as it still says "Saved" from the save before).
 */
async function save(page: Page, l: string, w: string) {
  await page.locator('#area-l').fill(l);
  await page.locator('#area-w').fill(w);
  await expect(page.locator('.result-main output')).not.toBeEmpty();
  const counted = (await badge(page).count()) > 0 ? Number(await badge(page).textContent()) : 0;
  await page.getByRole('button', { name: calc.saveToHistory }).click();
  await expect(page.locator('.action-status')).toHaveText(calc.saved);
  await expect(badge(page)).toHaveText(String(counted + 1));
}

async function openPanel(page: Page) {
  await page.locator('header').getByRole('button', { name: messages('en').nav.history }).click();
  await expect(panel(page)).toBeVisible();
}

async function closePanel(page: Page) {
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
}

/** A second device: a context of its own (its own IndexedDB), signed in to the same account. */
async function secondDevice(browser: Browser, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page);
  await signIn(page, email);
  await expect(dialog(page).getByRole('heading', { name: m.title, exact: true })).toBeVisible();
  await settle(page);
  await closeDialog(page);
  return { context, page };
}

/** A new account, signed up on page (device A) and signed in on a second device (B). */
async function twoDevices(page: Page, browser: Browser, tag: string) {
  const email = uniqueEmail(tag);
  await open(page);
  await signUp(page, email);
  await closeDialog(page);
  return secondDevice(browser, email);
}

/** Makes the API unreachable from page, as when the network drops. */
const cutOff = (page: Page) => page.route('**/api/**', (route) => route.abort('internetdisconnected'));

/** Makes it reachable again, and the browser says it is back online (its online event). */
async function reconnect(page: Page, context: BrowserContext) {
  await page.unroute('**/api/**');
  await context.setOffline(true);
  await context.setOffline(false);
}

/** The API's errors and unanswered requests of a page, from now on (watchApi). */
const apiLog = new WeakMap<Page, { errors: string[]; pending: Map<unknown, string> }>();

function watchApi(page: Page) {
  const log = { errors: [] as string[], pending: new Map<unknown, string>() };
  apiLog.set(page, log);
  const api = (url: string) => (url.includes('/api/') ? new URL(url).pathname : undefined);
  page.on('request', (r) => {
    const path = api(r.url());
    if (path) log.pending.set(r, `${r.method()} ${path} since ${new Date().toISOString()}`);
  });
  page.on('requestfinished', (r) => void log.pending.delete(r));
  page.on('requestfailed', (r) => {
    log.pending.delete(r);
    const path = api(r.url());
    if (path) log.errors.push(`${path}: ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    const path = api(r.url());
    if (path && r.status() >= 400) log.errors.push(`${r.status()} ${path}`);
  });
}

/** Runs check; if it fails, says what the API answered meanwhile and what it never answered:
 * what to look at when the sync state waits (it once stayed "Connecting…" in CI). */
async function withApiTrouble(page: Page, check: () => Promise<void>) {
  try {
    await check();
  } catch (err) {
    const log = apiLog.get(page);
    const detail = log ? `\nAPI errors: ${log.errors.join('; ') || 'none'}\nAPI requests unanswered: ${[...log.pending.values()].join('; ') || 'none'}` : '';
    throw new Error(`${err instanceof Error ? err.message : String(err)}${detail}`, { cause: err });
  }
}

const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));

test('keeps the device’s history at sign-up, and shows a save on one device on the other', async ({ page, browser }) => {
  watchApi(page);
  await open(page);
  await save(page, '2', '3');
  await save(page, '4', '5');
  const email = uniqueEmail('sync');
  const d = await openDialog(page);
  await d.locator('.account-switch button').click();
  const keep = d.getByLabel(m.keepHistory);
  await expect(keep).toBeChecked(); // the offer, default yes
  await expect(d.locator('#account-keep-history-hint')).toHaveText(m.keepHistoryHint.replace('{{count}}', '2'));
  await d.getByLabel(m.email).fill(email);
  await d.getByLabel(m.password, { exact: true }).fill(password);
  await d.getByRole('button', { name: m.signUp, exact: true }).click();
  await expect(d.getByRole('heading', { name: m.title, exact: true })).toBeVisible();
  await settle(page);
  await closeDialog(page);

  await openPanel(page);
  await expect(panel(page)).toContainText(h.accountWide);
  await expect(entries(page)).toHaveCount(2);
  await withApiTrouble(page, () => expect(panel(page).locator('.history-sync')).toHaveText(h.online));
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page }).include('dialog.history-dialog').analyze();
    expect(axe.violations.map((v) => `${colorScheme}: ${v.id}`)).toEqual([]);
  }
  await closePanel(page);

  const b = await secondDevice(browser, email);
  await openPanel(b.page);
  await expect(entries(b.page)).toHaveCount(2);
  await save(page, '6', '7');
  await expect(entries(b.page)).toHaveCount(3);
  await expect(entries(b.page).first()).toContainText('42');
  await b.context.close();
});

test('saves while the API is unreachable survive a reload, are counted, and go out on their own', async ({ page, context, browser }) => {
  const b = await twoDevices(page, browser, 'offline');
  await openPanel(b.page);
  await expect(entries(b.page)).toHaveCount(0);

  await cutOff(page);
  for (const [l, w] of [['1', '1'], ['2', '2'], ['3', '3']]) await save(page, l, w);
  await page.reload();
  await hydrated(page);
  await openPanel(page);
  await expect(entries(page)).toHaveCount(3);
  await expect(panel(page).locator('.history-sync')).toContainText(h.offline);
  await expect(panel(page).locator('.history-pending')).toHaveText(h.pending.replace('{{count}}', '3'));
  expect(await b.page.locator('dialog.history-dialog .history-entry').count()).toBe(0);

  await reconnect(page, context); // the sync goes at once, without waiting out its backoff
  await expect(panel(page).locator('.history-sync')).toHaveText(h.online);
  await expect(entries(b.page)).toHaveCount(3);
  await b.context.close();
});

test('two tabs of one device show each other’s saves', async ({ page, context }) => {
  await open(page);
  await signUp(page, uniqueEmail('tabs'));
  await closeDialog(page);
  const other = await context.newPage();
  await open(other);
  await openPanel(other);
  await expect(other.locator('.history-where')).toHaveText(h.accountWide);
  // Online at once, though nothing changed: not "Connecting…" until the long poll ends.
  await expect(other.locator('.history-sync')).toHaveText(h.online);
  await page.reload();
  await hydrated(page);
  await openPanel(page);
  await expect(panel(page).locator('.history-sync')).toHaveText(h.online);
  await closePanel(page);
  await save(page, '8', '9');
  await expect(entries(other)).toHaveCount(1);
  await expect(entries(other).first()).toContainText('72');
});

test('signing out, or deleting the account, leaves nothing of it in IndexedDB', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await open(page);
  await save(page, '1', '2'); // the device's own history, which comes back after
  await signUp(page, uniqueEmail('leave'));
  await closeDialog(page);
  await save(page, '3', '4');
  await expect.poll(() => databases(page)).toContain('handy');

  const d = await openDialog(page);
  await d.getByRole('button', { name: m.signOut }).click();
  await expect.poll(() => databases(page)).not.toContain('handy');
  await openPanel(page);
  await expect(panel(page).locator('.history-where')).toHaveText(h.deviceOnly);
  await expect(entries(page)).toHaveCount(0); // the device's entry went into the account
  await closePanel(page);

  // Deleting: the account's copy goes the same way, here and on the account's other device.
  const email = uniqueEmail('erase');
  await signUp(page, email);
  await closeDialog(page);
  const b = await secondDevice(browser, email);
  await openPanel(b.page);
  await expect.poll(() => databases(b.page)).toContain('handy');
  await save(page, '5', '6');
  await expect.poll(() => databases(page)).toContain('handy');
  const data = await openDialog(page);
  await data.getByRole('tab', { name: m.tabs.data }).click();
  await data.locator('#account-delete-password').fill(password);
  await data.getByRole('button', { name: m.delete, exact: true }).click();
  await data.getByRole('button', { name: m.confirmYes }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect.poll(() => databases(page)).not.toContain('handy');
  // Device B's sync meets the refused token (at its next listen, within the long poll).
  await expect.poll(() => databases(b.page), { timeout: 60_000 }).not.toContain('handy');
  await b.context.close();
});

test('preferences changed while the API is unreachable are kept across a reload and reach the other device', async ({ page, context, browser }) => {
  const b = await twoDevices(page, browser, 'prefs-offline');

  await cutOff(page);
  const d = await openDialog(page);
  await d.getByRole('tab', { name: m.tabs.preferences }).click();
  await d.locator('#account-area-unit').selectOption('cm');
  await d.getByRole('button', { name: m.savePrefs }).click();
  await expect(page.locator('.toast', { hasText: m.prefsSaved })).toBeVisible();
  await closeDialog(page);
  await open(page); // a reload, the API still unreachable: the copy has them
  await expect(page.locator('#area-unit')).toHaveValue('cm');

  await reconnect(page, context);
  await open(b.page); // device B follows its own copy, which the listen keeps current
  await expect(b.page.locator('#area-unit')).toHaveValue('cm');
  await b.context.close();
});
