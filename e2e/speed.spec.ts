// The speed calculator in the real page: typing, results in every unit, errors, legs, the
// query string, copy and reset; in English, German (decimal comma) and Japanese. Expected
// strings come from the locale files, so the tests read the same in every language.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, fill, hydrated, namespaceMessages, test } from './fixtures';

type SpeedMessages = typeof import('../web/src/features/speed/locales/en.json');
type CalcMessages = typeof import('../web/src/calculator/locales/en.json');

const speedMessages = (code: string) => namespaceMessages<SpeedMessages>('speed', code);
const calcMessages = (code: string) => namespaceMessages<CalcMessages>('calculator', code);

async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

const solve = (page: Page) => page.locator('section[aria-labelledby="speed-solve-heading"]');
const legs = (page: Page) => page.locator('section[aria-labelledby="speed-legs-heading"]');
const summary = (page: Page) => solve(page).locator('.result-summary');
const legsSummary = (page: Page) => legs(page).locator('.result-summary');

async function noNaN(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/NaN|Infinity|undefined/);
}

test.describe('English', () => {
  const s = speedMessages('en');
  const c = calcMessages('en');

  test('150 km in 2:30:00 is 60 km/h, in every unit, with the formula', async ({ page, consoleErrors }) => {
    await open(page, '/speed-calculator');
    await expect(summary(page)).toHaveText(s.empty);
    await page.locator('#speed-d').fill('150');
    await page.locator('#speed-t').fill('2:30:00');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.speed} 60 km/h`);
    await expect(summary(page)).toContainText('2:30:00 (2.5 h)');
    // The empty field shows the computed value.
    await expect(page.locator('#speed-v')).toHaveAttribute('placeholder', '60');
    await expect(page.locator('label[for="speed-v"]')).toContainText(s.computed);

    const table = solve(page).locator('table.units-table');
    await expect(table.locator('caption')).toHaveText(s.allSpeeds);
    const row = (name: string) => table.locator('tr', { has: page.locator('th', { hasText: name }) }).locator('td');
    await expect(row('(km/h)')).toHaveText('60');
    await expect(row('(mph)')).toHaveText('37.282272');
    await expect(row('(m/s)')).toHaveText('16.666667');
    await expect(row('(kn)')).toHaveText('32.397408');
    await expect(row(s.speedUnits.mach)).toHaveText('0.048977');
    await expect(row('(min/km)')).toHaveText('1:00');
    await expect(row('(min/mi)')).toHaveText('1:36.561');
    await expect(table.locator('tr[aria-current="true"] th')).toContainText('km/h');

    const formula = solve(page).locator('dl.formula');
    await expect(formula).toContainText(c.formula);
    await expect(formula).toContainText('v = d / t');
    await expect(formula).toContainText(c.withValues);
    await expect(formula).toContainText('60 km/h = 150 km / 2:30:00');
    await noNaN(page);
    expect(consoleErrors).toEqual([]);
  });

  test('solves for the time the visitor picks: a marathon at 12 km/h', async ({ page }) => {
    await open(page, '/speed-calculator');
    await page.getByRole('radio', { name: s.targets.time }).check();
    await page.locator('#speed-v').fill('12');
    await page.getByRole('button', { name: s.presetNames.marathon, exact: true }).click();
    await expect(page.locator('#speed-d')).toHaveValue('42.195');
    await expect(page.locator('#speed-t')).toHaveValue('3:30:58.5');
    await expect(page.locator('#speed-t')).toHaveAttribute('readonly', '');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.time} 3:30:58.5 (3.51625 h)`);
    await expect(solve(page).locator('dl.formula')).toContainText('3:30:58.5 = 42.195 km / 12 km/h');
    await expect(page).toHaveURL(/\?solve=time&v=12&d=42\.195$/);

    // Nothing to compute yet says what is missing.
    await page.locator('#speed-v').fill('');
    await expect(summary(page)).toHaveText(s.needFor.time);
    await expect(page.locator('#speed-t')).toHaveValue('');
  });

  test('a pace of 5:00 min/km is 12 km/h', async ({ page }) => {
    await open(page, '/speed-calculator');
    await page.locator('#speed-vu').selectOption('min-km');
    await page.locator('#speed-v').fill('5:00');
    await page.locator('#speed-d').fill('10');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.time} 0:50:00 (0.833333 h)`);
    await expect(summary(page)).toContainText('5:00 min/km');
    const table = solve(page).locator('table.units-table');
    await expect(table.locator('tr', { has: page.locator('th', { hasText: '(km/h)' }) }).locator('td')).toHaveText('12');
    await expect(table.locator('tr[aria-current="true"] td')).toHaveText('5:00');
    await expect(solve(page).locator('dl.formula')).toContainText('0:50:00 = 10 km / 12 km/h');
  });

  test('average over legs: 60 km in 1 h and 60 km in 1.5 h is 48 km/h, not 50', async ({ page, consoleErrors }) => {
    await open(page, '/speed-calculator');
    await expect(legsSummary(page)).toHaveText(s.legsEmpty);
    await page.locator('#speed-leg-1-value').fill('60');
    await page.locator('#speed-leg-1-time').fill('1:00:00');
    await expect(legsSummary(page)).toHaveText(fill(s.legsIncomplete, { legs: '2' }));
    await page.locator('#speed-leg-2-value').fill('60');
    await page.locator('#speed-leg-2-time').fill('1:30:00');
    await expect(legsSummary(page).locator('.result-main')).toHaveText(`${s.averageSpeed} 48 km/h`);
    await expect(legsSummary(page)).toContainText(`${s.meanOfSpeeds} 50 km/h`);
    await expect(legsSummary(page)).toContainText(`${s.totalDistance} 120 km`);
    await expect(legsSummary(page)).toContainText(`${s.totalTime} 2:30:00 (2.5 h)`);
    await expect(legsSummary(page)).toContainText(s.whyEqualDistances);
    await expect(legs(page).locator('dl.formula')).toContainText('48 km/h = 120 km / 2:30:00');
    await expect(legs(page).locator('dl.formula')).toContainText('(60 km/h + 40 km/h) / 2 = 50 km/h');

    // A third leg given as speed and time; the add button moves focus into it.
    await legs(page).getByRole('button', { name: s.addLeg }).click();
    await expect(page.locator('#speed-leg-3-value')).toBeFocused();
    await page.locator('#speed-leg-3-mode').selectOption('vt');
    await page.locator('#speed-leg-3-value').fill('30');
    await page.locator('#speed-leg-3-time').fill('30:00');
    await expect(legsSummary(page).locator('.result-main')).toHaveText(`${s.averageSpeed} 45 km/h`);
    await expect(legsSummary(page)).toContainText(s.whyDiffer);
    await expect(page).toHaveURL(/legs=/);

    // Removing leg 1 moves focus to the leg that took its place.
    await legs(page).getByRole('button', { name: fill(s.removeLeg, { n: 1 }) }).click();
    await expect(page.locator('#speed-leg-1-value')).toBeFocused();
    await expect(page.locator('#speed-leg-1-value')).toHaveValue('60');
    await expect(page.locator('#speed-leg-1-time')).toHaveValue('1:30:00');
    await expect(legs(page).locator('fieldset.speed-leg')).toHaveCount(2);

    // The legs survive a reload.
    await expect(page).toHaveURL(/legs=d%3A60%2Ct%3A1%3A30%3A00%3Bv%3A30%2Ct%3A30%3A00/);
    await page.reload();
    await hydrated(page);
    await expect(page.locator('#speed-leg-2-mode')).toHaveValue('vt');
    await expect(page.locator('#speed-leg-2-value')).toHaveValue('30');
    await expect(legsSummary(page).locator('.result-main')).toHaveText(`${s.averageSpeed} 37.5 km/h`);
    await noNaN(page);
    expect(consoleErrors).toEqual([]);
  });

  test('invalid input gets a message at its field, never NaN', async ({ page }) => {
    await open(page, '/speed-calculator');
    await page.locator('#speed-d').fill('150');
    await page.locator('#speed-t').fill('0:00:00');
    await page.locator('#speed-t').blur();
    await expect(page.locator('#speed-t-error')).toHaveText(s.errors.zeroTime);
    await expect(page.locator('#speed-t')).toHaveAttribute('aria-invalid', 'true');
    await expect(summary(page)).toHaveText(c.fixFields);

    await page.locator('#speed-t').fill('1:75:00');
    await page.locator('#speed-d').fill('abc');
    await page.locator('#speed-d').blur();
    await expect(page.locator('#speed-t-error')).toHaveText(s.errors.minutesTooLarge);
    await expect(page.locator('#speed-d-error')).toHaveText(fill(c.errors.notANumber, { example: '1.5' }));

    await page.locator('#speed-d').fill('-5');
    await page.locator('#speed-d').blur();
    await expect(page.locator('#speed-d-error')).toHaveText(c.errors.mustBePositive);

    // All three filled in: choose what to compute.
    await page.locator('#speed-d').fill('5');
    await page.locator('#speed-t').fill('1:00:00');
    await page.locator('#speed-v').fill('5');
    await expect(summary(page)).toHaveText(s.chooseTarget);
    await expect(page.locator('#speed-d-error')).toHaveText('');

    // Values too large for any unit.
    await page.locator('#speed-v').fill('');
    await page.locator('#speed-d').fill('1e300');
    await page.locator('#speed-t').fill('1e-300');
    await expect(summary(page)).toHaveText(c.errors.outOfRange);
    await noNaN(page);
  });

  test('the inputs live in the query string: a reload and a shared link restore them', async ({ page, browser }) => {
    await open(page, '/speed-calculator');
    await page.locator('#speed-d').fill('150');
    await page.locator('#speed-t').fill('2:30:00');
    await page.locator('#speed-dp').selectOption('2');
    await expect(page).toHaveURL(/\/speed-calculator\?d=150&t=2%3A30%3A00&dp=2$/);
    const url = page.url();

    await page.reload();
    await hydrated(page);
    await expect(page.locator('#speed-d')).toHaveValue('150');
    await expect(page.locator('#speed-t')).toHaveValue('2:30:00');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.speed} 60 km/h`);

    const other = await browser.newPage();
    await other.goto(url);
    await hydrated(other);
    await expect(other.locator('#speed-dp')).toHaveValue('2');
    await expect(summary(other).locator('.result-main')).toHaveText(`${s.speed} 60 km/h`);
    await expect(solve(other).locator('table.units-table tr', { hasText: '(mph)' }).locator('td')).toHaveText('37.28');
    await other.close();
  });

  test('reset clears the form, the result and the address', async ({ page }) => {
    await open(page, '/speed-calculator?v=12&d=42.195&vu=mph&solve=time');
    await expect(page.locator('#speed-t')).not.toHaveValue('');
    await expect(summary(page).locator('.result-main')).toBeVisible();
    await solve(page).getByRole('button', { name: c.reset }).click();
    await expect(page.locator('#speed-v')).toHaveValue('');
    await expect(page.locator('#speed-d')).toHaveValue('');
    await expect(page.locator('#speed-vu')).toHaveValue('km-h');
    await expect(page.getByRole('radio', { name: s.targets.auto })).toBeChecked();
    await expect(summary(page)).toHaveText(s.empty);
    await expect(page).toHaveURL(/\/speed-calculator$/);
  });

  test('axe finds nothing with results, errors and computed fields on show', async ({ page }) => {
    await open(page, '/speed-calculator?solve=distance&v=5:00&vu=min-km&t=1:75:00&legs=d:60,t:1:00:00;v:40,t:1:30:00;d:abc,t:0');
    await page.locator('#speed-t').blur();
    await expect(page.locator('#speed-t-error')).toHaveText(s.errors.minutesTooLarge);
    await page.locator('#speed-leg-3-time').focus();
    await page.locator('#speed-leg-3-time').blur();
    await expect(page.locator('#speed-leg-3-time-error')).toHaveText(s.errors.zeroTime);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);

    await page.locator('#speed-t').fill('1:00:00');
    await page.locator('#speed-leg-3-value').fill('10');
    await page.locator('#speed-leg-3-time').fill('0:30:00');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.distance} 12 km`);
    await expect(legsSummary(page).locator('.result-main')).toBeVisible();
    const again = await new AxeBuilder({ page }).analyze();
    expect(again.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });

  test('keyboard only: solve for, type, add and remove legs', async ({ page }) => {
    await open(page, '/speed-calculator');
    await page.getByRole('radio', { name: s.targets.auto }).focus();
    await page.keyboard.press('ArrowDown'); // radios: arrows move the choice
    await expect(page.getByRole('radio', { name: s.targets.speed })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.locator('#speed-v')).toBeFocused(); // read-only, still reachable
    await page.keyboard.press('Tab');
    await expect(page.locator('#speed-vu')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.locator('#speed-d')).toBeFocused();
    await page.keyboard.type('10');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(solve(page).getByRole('button', { name: '5 km', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#speed-d')).toHaveValue('5');
    await page.locator('#speed-t').focus();
    await page.keyboard.type('25:00');
    await expect(page.locator('#speed-v')).toHaveValue('12');

    await legs(page).getByRole('button', { name: s.addLeg }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#speed-leg-3-value')).toBeFocused();
    await legs(page).getByRole('button', { name: fill(s.removeLeg, { n: 3 }) }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#speed-leg-2-value')).toBeFocused();
    await expect(legs(page).locator('fieldset.speed-leg')).toHaveCount(2);
  });

  test('a trip has at most 20 legs', async ({ page }) => {
    await open(page, `/speed-calculator?legs=${encodeURIComponent(Array(19).fill('d:10,t:0:30:00').join(';'))}`);
    await expect(legs(page).locator('fieldset.speed-leg')).toHaveCount(19);
    await legs(page).getByRole('button', { name: s.addLeg }).click();
    await expect(page.locator('#speed-leg-20-value')).toBeFocused();
    await expect(legs(page).getByRole('button', { name: s.addLeg })).toBeDisabled();
    await expect(legs(page)).toContainText(fill(s.maxLegs, { max: 20 }));
    await expect(legsSummary(page)).toHaveText(fill(s.legsIncomplete, { legs: '20' }));
  });

  test.describe('clipboard', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

    test('copy link and copy result', async ({ page }) => {
      await open(page, '/speed-calculator');
      await page.locator('#speed-d').fill('150');
      await page.locator('#speed-t').fill('2:30:00');
      await solve(page).getByRole('button', { name: c.copyLink }).click();
      await expect(solve(page).locator('.action-status')).toHaveText(c.linkCopied);
      const link = await page.evaluate(() => navigator.clipboard.readText());
      expect(link).toMatch(/\/speed-calculator\?d=150&t=2%3A30%3A00$/);
      expect(new URL(link).origin).toBe(new URL(page.url()).origin);

      await solve(page).getByRole('button', { name: c.copyResult }).click();
      await expect(solve(page).locator('.action-status')).toHaveText(c.copied);
      const result = await page.evaluate(() => navigator.clipboard.readText());
      expect(result).toContain(`${s.speed}: 60 km/h`);
      expect(result).toContain('60 km/h = 150 km / 2:30:00');
    });
  });
});

// The German and Japanese strings are read inside each test, so that a missing translation
// fails those tests only.
test.describe('German', () => {
  const s = {} as SpeedMessages;
  const c = {} as CalcMessages;
  test.beforeEach(() => {
    Object.assign(s, speedMessages('de'));
    Object.assign(c, calcMessages('de'));
  });

  test('decimal comma in hours, and a German error message', async ({ page, consoleErrors }) => {
    await open(page, '/de/speed-calculator');
    await page.locator('#speed-tf').selectOption('hours');
    await page.locator('#speed-d').fill('150');
    await page.locator('#speed-t').fill('1,5');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.speed} 100 km/h`);
    await expect(summary(page)).toContainText('1,5 h (1:30:00)');
    await expect(solve(page).locator('table.units-table tr', { hasText: '(m/s)' }).locator('td')).toHaveText('27,777778');
    await expect(page).toHaveURL(/\?d=150&t=1\.5&tf=hours$/);

    await page.locator('#speed-d').fill('1,5,5');
    await page.locator('#speed-d').blur();
    await expect(page.locator('#speed-d-error')).toHaveText(fill(c.errors.notANumber, { example: '1,5' }));

    // Legs in decimal hours with a comma.
    await page.locator('#speed-lt').selectOption('hours');
    await page.locator('#speed-leg-1-value').fill('60');
    await page.locator('#speed-leg-1-time').fill('1');
    await page.locator('#speed-leg-2-value').fill('60');
    await page.locator('#speed-leg-2-time').fill('1,5');
    await expect(legsSummary(page).locator('.result-main')).toHaveText(`${s.averageSpeed} 48 km/h`);
    await expect(legsSummary(page)).toContainText(`${s.totalTime} 2,5 h (2:30:00)`);
    await noNaN(page);
    expect(consoleErrors).toEqual([]);
  });

  test('an English link opens in German notation', async ({ page }) => {
    await open(page, '/de/speed-calculator?d=21.0975&t=1:02:03.5');
    await expect(page.locator('#speed-d')).toHaveValue('21,0975');
    await expect(page.locator('#speed-t')).toHaveValue('1:02:03,5');
    await expect(summary(page).locator('.result-main')).toContainText('km/h');
  });
});

test.describe('Japanese', () => {
  const s = {} as SpeedMessages;
  test.beforeEach(() => void Object.assign(s, speedMessages('jp')));

  test('a computation and a Japanese error message', async ({ page, consoleErrors }) => {
    await open(page, '/jp/speed-calculator');
    await page.locator('#speed-d').fill('150');
    await page.locator('#speed-t').fill('2:30:00');
    await expect(summary(page).locator('.result-main')).toHaveText(`${s.speed} 60 km/h`);
    await page.locator('#speed-t').fill('0:00:00');
    await page.locator('#speed-t').blur();
    await expect(page.locator('#speed-t-error')).toHaveText(s.errors.zeroTime);
    await expect(summary(page)).toHaveText(calcMessages('jp').fixFields);
    await noNaN(page);
    expect(consoleErrors).toEqual([]);
  });
});
