// The history of an anonymous visitor, in a real browser: saving from a calculator (not twice in
// a row, and by copying), the header's badge, the panel (day groups, reopening an entry, delete
// with undo, clear with confirmation, the empty state), a reload, keyboard only, axe in both
// themes, and one run in Japanese.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, hydrated, messages, namespaceMessages, pagePath, test } from './fixtures';
import { gradient, png } from './images';

type HistoryMessages = typeof import('../web/src/features/history/locales/en.json');
type CalcMessages = typeof import('../web/src/calculator/locales/en.json');
type FlipMessages = typeof import('../web/src/features/flip/locales/en.json');
const history = (code: string) => namespaceMessages<HistoryMessages>('history', code);
const calc = (code: string) => namespaceMessages<CalcMessages>('calculator', code);

async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
}

/** The header's button, whose name is "History" and, with a badge, its count. */
const historyButton = (page: Page, code = 'en') => page.locator('header').getByRole('button', { name: messages(code).nav.history });
const panel = (page: Page) => page.locator('dialog.history-dialog');
const badge = (page: Page) => page.locator('.history-button .badge [aria-hidden]');

async function computeRectangle(page: Page, l: string, w: string) {
  await page.locator('#area-l').fill(l);
  await page.locator('#area-w').fill(w);
  await expect(page.locator('.result-main output')).not.toBeEmpty();
}

test('saves a result, not twice in a row, counts it on the badge, and reopens it from the panel', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, '/area-calculator');
  await expect(badge(page)).toHaveCount(0);
  await computeRectangle(page, '12.5', '8');
  const save = page.getByRole('button', { name: calc('en').saveToHistory });
  await save.click();
  await expect(page.locator('.action-status')).toHaveText(calc('en').saved);
  await expect(badge(page)).toHaveText('1');
  await save.click();
  await expect(page.locator('.action-status')).toHaveText(calc('en').alreadySaved);
  // Copying saves too, silently, and not the same inputs again.
  await page.getByRole('button', { name: calc('en').copyLink }).click();
  await expect(page.locator('.action-status')).toHaveText(calc('en').linkCopied);
  await computeRectangle(page, '3', '4');
  await page.getByRole('button', { name: calc('en').copyResult }).click();
  await expect(badge(page)).toHaveText('2');

  await historyButton(page).click();
  await expect(panel(page)).toBeVisible();
  await expect(badge(page)).toHaveCount(0);
  const entries = panel(page).locator('.history-entry');
  await expect(entries).toHaveCount(2);
  await expect(panel(page).locator('.history-day h3')).toHaveCount(1);
  await expect(entries.first()).toContainText('12'); // newest first: 3 × 4 = 12 m²
  const link = entries.nth(1).locator('a');
  await expect(link).toHaveAttribute('href', /^\/area-calculator\?.*l=12\.5/);
  await link.click();
  await expect(page).toHaveURL(/\/area-calculator\?.*l=12\.5/);
  await hydrated(page);
  await expect(page.locator('#area-l')).toHaveValue('12.5');
});

test('deletes with undo, clears after a confirmation, and keeps entries across a reload', async ({ page }) => {
  await open(page, '/area-calculator');
  for (const [i, [l, w]] of [['1', '2'], ['3', '4'], ['5', '6']].entries()) {
    await computeRectangle(page, l, w);
    await page.getByRole('button', { name: calc('en').saveToHistory }).click();
    await expect(badge(page)).toHaveText(String(i + 1));
  }
  await page.reload();
  await hydrated(page);
  await expect(badge(page)).toHaveText('3');
  await historyButton(page).click();
  const entries = panel(page).locator('.history-entry');
  await expect(entries).toHaveCount(3);

  const first = await entries.first().locator('.history-title').innerText();
  await entries.first().getByRole('button', { name: history('en').deleteEntry.replace('{{title}}', first) }).click();
  await expect(entries).toHaveCount(2);
  await expect(panel(page).locator('.history-notice')).toContainText(first);
  await panel(page).getByRole('button', { name: history('en').undo }).click();
  await expect(entries).toHaveCount(3);

  // Search and filter.
  await panel(page).getByLabel(history('en').search).fill('30');
  await expect(entries).toHaveCount(1);
  await panel(page).getByLabel(history('en').filter).selectOption('speed');
  await expect(panel(page).locator('.history-empty')).toHaveText(history('en').noMatch);
  await panel(page).getByLabel(history('en').filter).selectOption('all');
  await panel(page).getByLabel(history('en').search).fill('');

  await panel(page).getByRole('button', { name: history('en').clear }).click();
  await expect(panel(page).getByText(history('en').clearConfirm)).toBeVisible();
  await panel(page).getByRole('button', { name: history('en').clearNo }).click();
  await expect(entries).toHaveCount(3);
  await panel(page).getByRole('button', { name: history('en').clear }).click();
  await panel(page).getByRole('button', { name: history('en').clearYes }).click();
  await expect(panel(page).getByRole('heading', { name: history('en').emptyTitle })).toBeVisible();
  await expect(panel(page)).toContainText(history('en').deviceOnly);
  await page.reload();
  await hydrated(page);
  await historyButton(page).click();
  await expect(panel(page).getByRole('heading', { name: history('en').emptyTitle })).toBeVisible();
});

test('works from memory, and says so, where the browser refuses IndexedDB', async ({ page, consoleErrors }) => {
  await page.addInitScript(() => {
    indexedDB.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
  });
  const warnings: string[] = [];
  page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
  await open(page, '/area-calculator');
  await computeRectangle(page, '2', '2');
  await page.getByRole('button', { name: calc('en').saveToHistory }).click();
  await expect(page.locator('.action-status')).toHaveText(calc('en').saved);
  await historyButton(page).click();
  await expect(panel(page).locator('.history-where')).toHaveText(history('en').memoryOnly);
  await expect(panel(page).locator('.history-entry')).toHaveCount(1);
  expect(warnings.some((w) => w.startsWith('persistence unavailable'))).toBe(true);
  expect(consoleErrors).toEqual([]);
});

test('the badge counts up to 99, then says 99+', async ({ page }) => {
  await open(page, '/area-calculator');
  await page.evaluate(() => localStorage.setItem('handy:history:unseen', '98'));
  await page.reload();
  await hydrated(page);
  await expect(badge(page)).toHaveText('98');
  await computeRectangle(page, '1', '1');
  await page.getByRole('button', { name: calc('en').saveToHistory }).click();
  await expect(badge(page)).toHaveText('99');
  await computeRectangle(page, '1', '2');
  await page.getByRole('button', { name: calc('en').saveToHistory }).click();
  await expect(badge(page)).toHaveText('99+');
  await expect(historyButton(page)).toHaveAccessibleName(`${messages('en').nav.history} ${messages('en').nav.historyNew.replace('{{count}}', '100')}`);
  await historyButton(page).click();
  await expect(badge(page)).toHaveCount(0);
});

test('works from the keyboard alone and has no axe violations in either theme', async ({ page }) => {
  await open(page, '/speed-calculator');
  await page.locator('#speed-d').fill('100');
  await page.locator('#speed-t').fill('2');
  await page.getByRole('button', { name: calc('en').saveToHistory }).first().click();
  await expect(page.locator('.action-status').first()).toHaveText(calc('en').saved);
  await historyButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(panel(page)).toBeVisible();
  await expect(panel(page).locator('.history-entry')).toHaveCount(1);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).include('dialog.history-dialog').analyze();
    expect(axe.violations.map((v) => `${scheme}: ${v.id}`)).toEqual([]);
  }
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(historyButton(page)).toBeFocused();
});

test('speaks Japanese', async ({ page }) => {
  await open(page, pagePath('area-calculator', 'jp'));
  await computeRectangle(page, '2', '3');
  await page.getByRole('button', { name: calc('jp').saveToHistory }).click();
  await expect(page.locator('.action-status')).toHaveText(calc('jp').saved);
  await historyButton(page, 'jp').click();
  await expect(panel(page).getByRole('heading', { name: history('jp').title })).toBeVisible();
  await expect(panel(page).locator('.history-day h3')).toHaveText(/\d{4}年\d{1,2}月\d{1,2}日/);
  await expect(panel(page).locator('.history-entry a')).toHaveAttribute('href', /^\/jp\/area-calculator\?/);
});

test('records a downloaded flip: its name, size, format and steps, never its pixels', async ({ page }) => {
  const flip = namespaceMessages<FlipMessages>('flip', 'en');
  await open(page, '/flip-image');
  await page.locator('input[type="file"]').setInputFiles([{ name: 'grad.png', mimeType: 'image/png', buffer: png(gradient(5, 3)) }]);
  await expect(page.locator('.flip-item')).toHaveCount(1);
  await page.getByRole('button', { name: flip.ops.rotateCW }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: flip.download, exact: true }).click()]);
  await expect(badge(page)).toHaveText('1');
  await historyButton(page).click();
  const entry = panel(page).locator('.history-entry');
  await expect(entry.locator('.history-title')).toHaveText('grad-flipped.png');
  await expect(entry.locator('.history-meta')).toContainText(`3 × 5 px · PNG · ${flip.shortcuts.rotateCW} · 1 kB`);
  await expect(entry.locator('a')).toHaveAttribute('href', '/flip-image');
});
