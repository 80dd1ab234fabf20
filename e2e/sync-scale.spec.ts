// The history's sync at the sizes the server pages at (a listen answer ends past 1000 changes,
// a commit carries at most 500 writes): 1,000 saves queued offline go out and reach another
// device in order, once; a device long offline, across reloads, while another deleted what it
// holds, converges with it (the listen resuming from an old version over several answers, and,
// with the deletions pruned, the reset, continued over several answers), its refused change
// undone and said (the server's flags shorten the retention to a second); and an account
// with 10,000 entries opens on a fresh browser, which stays responsive and hears the next save.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { closeDialog, dialog, openDialog, settle, signIn, signUp, uniqueEmail } from './accounts';
import { expect, hydrated, messages, namespaceMessages, test } from './fixtures';
import { startOwnServer } from './ownServer';
import { apiSession, copyState, queueSaves, type SeedEntry } from './syncScale';

type HistoryMessages = typeof import('../web/src/features/history/locales/en.json');
type CalcMessages = typeof import('../web/src/calculator/locales/en.json');
type AccountMessages = typeof import('../web/src/features/account/locales/en.json');
const h = namespaceMessages<HistoryMessages>('history', 'en');
const calc = namespaceMessages<CalcMessages>('calculator', 'en');
const m = namespaceMessages<AccountMessages>('account', 'en');

const panel = (page: Page) => page.locator('dialog.history-dialog');
const entries = (page: Page) => panel(page).locator('.history-entry');
const titles = (page: Page) => entries(page).locator('.history-title').allTextContents();
const syncState = (page: Page) => panel(page).locator('.history-sync');

async function open(page: Page, url = '/area-calculator') {
  await page.goto(url);
  await hydrated(page);
}

async function openPanel(page: Page) {
  await page.locator('header').getByRole('button', { name: messages('en').nav.history }).click();
  await expect(panel(page)).toBeVisible();
}

async function closePanel(page: Page) {
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
}

/** Makes the API unreachable from page, as when the network drops. */
const cutOff = (page: Page) => page.route('**/api/**', (route) => route.abort('internetdisconnected'));

/** Makes it reachable again, and the browser says it is back online (its online event). */
async function reconnect(page: Page, context: BrowserContext) {
  await page.unroute('**/api/**');
  await context.setOffline(true);
  await context.setOffline(false);
}

/** A device of its own (a context, its own IndexedDB) signed in to email's account at origin. */
async function device(browser: Browser, origin: string, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page, `${origin}/area-calculator`);
  await signIn(page, email);
  await expect(dialog(page).getByRole('heading', { name: m.title, exact: true })).toBeVisible();
  await settle(page);
  await closeDialog(page);
  return { context, page };
}

/**
 * `count` saves from the area calculator on screen, l = first, first + 1, … by w, made from
 * inside the page as a visitor makes them (Reset, the two lengths, Save once enabled, then
 * "Saved"): a thousand Playwright round trips would take minutes on a busy machine.
 */
function saveMany(page: Page, first: number, count: number, w: number) {
  return page.evaluate(
    async ({ first, count, w, labels }) => {
      const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
      const button = (label: string) => [...document.querySelectorAll<HTMLButtonElement>('.result-actions button')].find((b) => b.textContent === label);
      const status = () => document.querySelector('.action-status')?.textContent ?? '';
      const setValue = (el: HTMLInputElement, value: string) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      };
      // Waits for cond, failing after 20 s: a hung save, not a slow one.
      const until = async (cond: () => boolean, what: () => string) => {
        const deadline = Date.now() + 20_000;
        while (!cond()) {
          if (Date.now() > deadline) throw new Error(what());
          await tick();
        }
      };
      for (let l = first; l < first + count; l++) {
        button(labels.reset)!.click();
        setValue(document.querySelector<HTMLInputElement>('#area-l')!, String(l));
        setValue(document.querySelector<HTMLInputElement>('#area-w')!, String(w));
        await until(() => !!button(labels.save) && !button(labels.save)!.disabled && status() === '', () => `save ${l}: the Save button did not become enabled`);
        button(labels.save)!.click();
        await until(() => status() === labels.saved, () => `save ${l}: the status says "${status()}"`);
      }
    },
    { first, count, w, labels: { reset: calc.reset, save: calc.saveToHistory, saved: calc.saved } },
  );
}

/** The length of a rectangle's entry, from its title ("Rectangle A = 1,000 × 7 = 7,000 m² …" → 1000). */
const lengthOf = (title: string) => Number(/=\s*([\d,]+) ×/.exec(title)?.[1].replaceAll(',', ''));

/** Entries as the history's save makes them, of rectangles l × 7 for l in [first, last], a
 * second apart up to `newest`, ids made as newEntryId makes them. */
function rectangles(first: number, last: number, newest: number, tag: string): SeedEntry[] {
  return Array.from({ length: last - first + 1 }, (_, i) => {
    const l = first + i;
    const at = newest - (last - l) * 1000;
    return { id: `${at.toString(36).padStart(9, '0')}-${tag}${l}`, at, l, w: 7, title: `Rectangle\nA = ${l} × 7 = ${7 * l} m²` };
  });
}

test('1,000 saves queued offline reach the server, and another device shows them all in order, once', async ({ page, context, browser, baseURL }) => {
  const email = uniqueEmail('queued');
  await open(page);
  await signUp(page, email);
  await closeDialog(page);
  await openPanel(page);
  await expect(syncState(page)).toHaveText(h.online);
  await closePanel(page);
  const { owner } = (await copyState(page))!;

  // Offline, 1,000 saves, one batch each: the first 950 queued in the outbox as the save queues
  // them (a thousand saves through the screen take minutes on a busy machine: each reads the
  // whole history first), then a reload, and the last 50 through the screen.
  await cutOff(page);
  await queueSaves(page, owner, rectangles(1, 950, Date.now() - 60_000, 'q'));
  await page.reload();
  await hydrated(page);
  await saveMany(page, 951, 50, 7);
  await openPanel(page);
  await expect(panel(page).locator('.history-pending')).toHaveText(h.pending.replace('{{count}}', '1000'));
  await expect(entries(page)).toHaveCount(1000);
  const shown = await titles(page);
  expect(shown.map(lengthOf)).toEqual(Array.from({ length: 1000 }, (_, i) => 1000 - i)); // newest first

  await reconnect(page, context);
  await expect(syncState(page)).toHaveText(h.online, { timeout: 60_000 }); // nothing pending
  const api = await apiSession(baseURL!, email, { signIn: true });
  try {
    expect((await api.historyIds()).length).toBe(1000);
  } finally {
    await api.close();
  }

  const b = await device(browser, baseURL!, email);
  await openPanel(b.page);
  await expect(entries(b.page)).toHaveCount(1000, { timeout: 60_000 });
  expect(await titles(b.page)).toEqual(shown);
  await expect(entries(page)).toHaveCount(1000); // the listen's echo duplicated nothing here
  expect(await titles(page)).toEqual(shown);
  expect((await copyState(page))?.ids).toEqual((await copyState(b.page))?.ids);
  await b.context.close();
});

/** Starts collecting the toasts page shows (a toast lasts 3 s: a poll may miss it). */
const watchToasts = (page: Page) =>
  page.evaluate(() => {
    const seen: string[] = ((window as unknown as { toastsSeen: string[] }).toastsSeen = []);
    new MutationObserver(() => {
      for (const t of document.querySelectorAll('.toast')) if (!seen.includes(t.textContent ?? '')) seen.push(t.textContent ?? '');
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
const toastsSeen = (page: Page) => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen);

/** The listen answers page receives from now on: whether each was a reset, and its changes. */
function watchListens(page: Page): { reset: boolean; changes: number }[] {
  const answers: { reset: boolean; changes: number }[] = [];
  page.on('response', (r) => {
    if (!r.url().includes('/api/v1/db/listen')) return;
    r.json().then(
      (a: { reset?: boolean; changes?: unknown[] }) => answers.push({ reset: !!a.reset, changes: a.changes?.length ?? 0 }),
      () => undefined, // cut short (the page went away): not an answer
    );
  });
  return answers;
}

/** Deletes the entry of length l through page's open History panel. */
async function deleteEntry(page: Page, l: number) {
  const entry = entries(page).filter({ hasText: `A = ${l} × 7 =` });
  await expect(entry).toHaveCount(1);
  await entry.locator('.history-delete').click();
  await expect(entries(page).filter({ hasText: `A = ${l} × 7 =` })).toHaveCount(0);
}

/**
 * Device A goes offline for a long time, across reloads: three saves, a deletion, and a change
 * the server will refuse. Meanwhile device B, online, saves, deletes an entry A holds, and
 * (through the API) adds 1,000 and deletes 251 more that A holds: A's listen resumes from an old
 * version over 1,253 changes, more than one answer holds. With `pruned`, the deletions'
 * tombstones are gone by then, and A's listen gets a reset (itself over two answers). Then A comes back: both converge on what the server holds, nothing
 * acknowledged lost, the refused change undone and said.
 */
async function longOffline(browser: Browser, origin: string, pruned: boolean) {
  const email = uniqueEmail(pruned ? 'away-reset' : 'away');
  const api = await apiSession(origin, email);
  const a = await device(browser, origin, email).catch(async (e: unknown) => {
    await api.close();
    throw e;
  });
  let b: Awaited<ReturnType<typeof device>> | undefined;
  try {
    const seeded = rectangles(1, 300, Date.now() - 3_600_000, 's');
    await api.seed(seeded);
    await openPanel(a.page);
    await expect(entries(a.page)).toHaveCount(300, { timeout: 60_000 });
    await expect(syncState(a.page)).toHaveText(h.online);
    await closePanel(a.page);
    b = await device(browser, origin, email);
    await openPanel(b.page);
    await expect(entries(b.page)).toHaveCount(300, { timeout: 60_000 });
    await closePanel(b.page);

    // A, offline: saves, a reload, a deletion, a refused change queued, a reload, a save.
    await cutOff(a.page);
    await saveMany(a.page, 601, 2, 7);
    await a.page.reload();
    await hydrated(a.page);
    await openPanel(a.page);
    await deleteEntry(a.page, 5);
    await closePanel(a.page);
    const { owner, since } = (await copyState(a.page))!;
    await queueSaves(a.page, owner, [{ ...rectangles(4242, 4242, Date.now(), 'bad')[0], bad: true }]);
    await a.page.reload();
    await hydrated(a.page);
    await saveMany(a.page, 603, 1, 7);
    await openPanel(a.page);
    await expect(panel(a.page).locator('.history-pending')).toHaveText(h.pending.replace('{{count}}', '5'));
    await expect(entries(a.page).filter({ hasText: 'A = 4242 × 7 =' })).toHaveCount(1); // shown until refused

    // B, online: a save, a deletion of an entry A holds, and many more changes by the API.
    await saveMany(b.page, 700, 1, 7);
    await openPanel(b.page);
    await deleteEntry(b.page, 10);
    await expect(syncState(b.page)).toHaveText(h.online);
    // 1,000 entries added, then 251 of A's deleted: A's listen resumes over 1,253 changes.
    await api.seed(rectangles(1001, 2000, Date.now() - 60_000, 't'));
    await api.remove(seeded.filter((e) => e.l >= 50).map((e) => e.id));
    if (pruned) {
      // The server no longer knows what A missed: a listen from A's version is a reset.
      await expect.poll(async () => (await api.listen(String(since))).reset, { timeout: 30_000 }).toBe(true);
    }

    const listens = watchListens(a.page);
    await watchToasts(a.page);
    await reconnect(a.page, a.context);
    await expect(syncState(a.page)).toHaveText(h.online, { timeout: 60_000 }); // nothing pending
    const rejected = m.changeRejected.slice(0, m.changeRejected.indexOf('{{'));
    await expect.poll(() => toastsSeen(a.page)).toContainEqual(expect.stringContaining(rejected));

    // Both show what the server holds: 49 seeded less the two deleted, A's 3, B's 1, the 1,000.
    const want = [...[...Array(49).keys()].map((i) => i + 1).filter((l) => l !== 5 && l !== 10), 601, 602, 603, 700]
      .concat([...Array(1000).keys()].map((i) => 1001 + i))
      .sort((x, y) => x - y);
    const onServer = await api.historyIds();
    expect(onServer).toHaveLength(want.length);
    for (const page of [a.page, b.page]) {
      await expect(entries(page)).toHaveCount(want.length, { timeout: 60_000 });
      await expect.poll(async () => (await copyState(page))?.ids, { timeout: 60_000 }).toEqual(onServer);
    }
    const shownA = await titles(a.page);
    expect(shownA.map(lengthOf).sort((x, y) => x - y)).toEqual(want);
    expect(await titles(b.page)).toEqual(shownA);
    // The first answer A heard was the reset, or the first page of what it missed.
    const heard = listens.filter((l) => l.changes > 0);
    expect(heard[0].reset).toBe(pruned);
    if (!pruned) expect(heard[0].changes).toBeLessThan(1253);
  } finally {
    await b?.context.close();
    await a.context.close();
    await api.close();
  }
}

test.describe('a device long offline, while another deletes what it holds', () => {
  test('converges through the listen resumed from its old version, over several answers', async ({ browser, baseURL }) => {
    await longOffline(browser, baseURL!, false);
  });

  test('converges through a reset when the deletions it missed were pruned', async ({ browser }) => {
    const site = await startOwnServer(['-tombstone-retention', '1s']);
    try {
      await longOffline(browser, site.url, true);
    } finally {
      await site.close();
    }
  });
});

test('an account of 10,000 entries opens on a fresh browser, which stays responsive and hears the next save', async ({ browser }) => {
  // A server of its own whose write rate lets the seeding go at once (10,000 writes; the
  // default bucket holds 2,000).
  const site = await startOwnServer(['-write-rate', '1000', '-write-burst', '20000']);
  const email = uniqueEmail('ten-thousand');
  const api = await apiSession(site.url, email).catch(async (e: unknown) => {
    await site.close();
    throw e;
  });
  let a: Awaited<ReturnType<typeof device>> | undefined;
  try {
    const seeded = rectangles(1, 10_000, Date.now() - 3_600_000, 's');
    await api.seed(seeded);
    // The first listen from nothing spans several answers.
    const first = await api.listen('0');
    expect(first.changes.length).toBeLessThan(10_001);

    const context = await browser.newContext();
    const page = await context.newPage();
    const listens = watchListens(page);
    await open(page, `${site.url}/area-calculator`);
    await signIn(page, email);
    await expect(dialog(page).getByRole('heading', { name: m.title, exact: true })).toBeVisible();
    await settle(page);
    await closeDialog(page);
    a = { context, page };

    // While the copy fills, the page answers: the calculator computes, the account dialog opens.
    await page.locator('#area-l').fill('3');
    await page.locator('#area-w').fill('4');
    await expect(page.locator('.result-main output')).toContainText('12');
    await openDialog(page);
    await closeDialog(page);
    // The panel opened once the copy is full (open, it would render each answer's growing list).
    await expect.poll(async () => (await copyState(page))?.ids.length, { timeout: 90_000 }).toBe(10_000);
    await openPanel(page);
    await expect(entries(page)).toHaveCount(10_000, { timeout: 60_000 });
    // Newest first (read one by one: the titles of all 10,000 take seconds to gather).
    for (const [i, l] of [10_000, 9_999, 9_998].entries()) await expect(entries(page).nth(i)).toContainText(`A = ${l} × 7 =`);
    await expect(syncState(page)).toHaveText(h.online);
    const copy = await copyState(page);
    expect(copy?.ids).toEqual(seeded.map((e) => e.id).sort());
    expect(listens.filter((l) => l.changes > 0).length).toBeGreaterThan(1);

    // The panel still answers a click: the tool filter empties the list, and back.
    const filter = panel(page).locator('.history-controls select');
    await filter.selectOption('speed');
    await expect(panel(page).locator('.history-empty')).toHaveText(h.noMatch);
    await filter.selectOption('all');
    await expect(entries(page)).toHaveCount(10_000);

    // A save on another device (the API) arrives first; the cap drops the oldest.
    const [fresh] = rectangles(10_001, 10_001, Date.now(), 'n');
    await api.seed([fresh]);
    await expect(entries(page).first()).toContainText(`A = ${fresh.l} × 7 =`, { timeout: 60_000 });
    await expect(entries(page)).toHaveCount(10_000);
    await expect
      .poll(async () => (await copyState(page))?.ids, { timeout: 60_000 })
      .toEqual([...seeded.slice(1).map((e) => e.id), fresh.id].sort());
  } finally {
    await a?.context.close();
    await api.close();
    await site.close();
  }
});
