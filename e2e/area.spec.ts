// The area calculator in a real browser: typing in three languages, every kind of error, the
// query string (reload, shared links across languages), copy and reset, keyboard only, axe.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, hydrated, namespaceMessages, test } from './fixtures';

type AreaMessages = typeof import('../web/src/features/area/locales/en.json');
type CalcMessages = typeof import('../web/src/calculator/locales/en.json');
const area = (code: string) => namespaceMessages<AreaMessages>('area', code);
const calc = (code: string) => namespaceMessages<CalcMessages>('calculator', code);

const base = { en: '/area-calculator', de: '/de/area-calculator', jp: '/jp/area-calculator' } as const;

async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
}

const result = (page: Page) => page.locator('.result-main output');
const perimeter = (page: Page) => page.locator('.result-secondary output');
const field = (page: Page, id: string) => page.locator(`#area-${id}`);
const fieldError = (page: Page, id: string) => page.locator(`#area-${id}-error`);

async function noNaN(page: Page) {
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/NaN|Infinity|undefined/);
}

test.describe('in English', () => {
  test('answers as you type, with the formula, the working and the perimeter', async ({ page }) => {
    await open(page, base.en);
    await expect(page.locator('.result-empty')).toHaveText(area('en').empty);
    await field(page, 'l').fill('12.5');
    await field(page, 'w').fill('8');
    await expect(result(page)).toHaveText('100 m²');
    await expect(perimeter(page)).toHaveText('41 m');
    await expect(page.locator('.formula')).toContainText('A = l × w');
    await expect(page.locator('.formula')).toContainText('A = 12.5 × 8 = 100 m²');
    await expect(page.locator('.formula')).toContainText('P = 2 × (12.5 + 8) = 41 m');
    const hectares = page.locator('.units-table tr', { hasText: '(ha)' }).locator('td');
    await expect(hectares).toHaveText('0.01');
    await expect(page.locator('.units-table tr', { hasText: '(ft²)' }).locator('td')).toHaveText('1,076.391042');
    await noNaN(page);
  });

  test('a triangle from three sides, its units, the decimals and another area unit', async ({ page }) => {
    await open(page, base.en);
    await page.locator('#area-shape').selectOption('triangle-sss');
    await expect(page.locator('svg.diagram')).toHaveAttribute('aria-label', new RegExp(area('en').shapes['triangle-sss'].replace(/[()]/g, '\\$&')));
    await page.locator('#area-unit').selectOption('cm');
    for (const [id, v] of [['a', '5'], ['b', '6'], ['c', '7']]) await field(page, id).fill(v);
    await expect(result(page)).toHaveText('14.696938 cm²');
    await expect(perimeter(page)).toHaveText('18 cm');
    await page.locator('#area-dp').selectOption('2');
    await expect(result(page)).toHaveText('14.7 cm²');
    await page.locator('#area-in').selectOption('in2');
    await expect(result(page)).toHaveText('2.28 in²');
    await expect(page.locator('.units-table tr[aria-current="true"] th')).toContainText('in²');
  });

  test('says what is wrong, at the field, and never shows NaN', async ({ page }) => {
    await open(page, base.en);
    await page.locator('#area-shape').selectOption('triangle-sss');
    await field(page, 'a').fill('1');
    await field(page, 'b').fill('2');
    await field(page, 'c').fill('5');
    await expect(fieldError(page, 'c')).toHaveText(area('en').errors.triangleInequality);
    await expect(field(page, 'c')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'c')).toHaveAttribute('aria-describedby', 'area-c-error');
    await expect(fieldError(page, 'c')).toHaveAttribute('aria-live', 'polite');
    await expect(page.locator('.result-empty')).toHaveText(calc('en').fixFields);

    await field(page, 'a').fill('abc');
    await field(page, 'a').blur();
    await expect(fieldError(page, 'a')).toHaveText(calc('en').errors.notANumber.replace('{{example}}', '1.5'));
    await field(page, 'a').fill('-3');
    await field(page, 'a').blur();
    await expect(fieldError(page, 'a')).toHaveText(calc('en').errors.mustBePositive);
    await field(page, 'a').fill('3');
    await expect(fieldError(page, 'a')).toBeEmpty();
    await field(page, 'c').fill('4');
    await expect(result(page)).toHaveText('2.904738 m²');
    await noNaN(page);

    await page.locator('#area-shape').selectOption('sector');
    await field(page, 'r').fill('1');
    await field(page, 'angle').fill('400');
    await expect(fieldError(page, 'angle')).toHaveText(area('en').errors.angleUpTo360);
    await field(page, 'r').fill('1e200');
    await field(page, 'angle').fill('90');
    await expect(page.locator('.result-empty')).toHaveText(calc('en').errors.outOfRange);
    await noNaN(page);
  });

  test('an irregular polygon from pasted vertices, and one that crosses itself', async ({ page }) => {
    await open(page, base.en);
    await page.locator('#area-shape').selectOption('polygon');
    await field(page, 'vertices').fill('0,0\n4,0\n5,3\n1,4');
    await expect(result(page)).toHaveText('14.5 m²');
    await field(page, 'vertices').fill('0,0\n4,4\n4,0\n0,4');
    await expect(fieldError(page, 'vertices')).toHaveText(area('en').errors.selfIntersecting);
    await field(page, 'vertices').fill('0,0\nfour,0\n4,3');
    await expect(fieldError(page, 'vertices')).toHaveText(area('en').errors.invalidVertex.replace('{{line}}', '2'));
  });

  test('keeps the inputs in the address: reload, copy link, open it, reset', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(page, base.en);
    await page.locator('#area-shape').selectOption('circle');
    await page.locator('#area-unit').selectOption('cm');
    await field(page, 'r').fill('3');
    await expect(result(page)).toHaveText('28.274334 cm²');
    await expect(page).toHaveURL(/\?shape=circle&unit=cm&r=3$/);

    await page.reload();
    await hydrated(page);
    await expect(field(page, 'r')).toHaveValue('3');
    await expect(result(page)).toHaveText('28.274334 cm²');

    // Switching to a semicircle keeps the radius.
    await page.locator('#area-shape').selectOption('semicircle');
    await expect(result(page)).toHaveText('14.137167 cm²');

    await page.getByRole('button', { name: calc('en').copyLink }).click();
    await expect(page.locator('.action-status')).toHaveText(calc('en').linkCopied);
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\/area-calculator\?shape=semicircle&unit=cm&r=3$/);

    await page.getByRole('button', { name: calc('en').copyResult }).click();
    await expect(page.locator('.action-status')).toHaveText(calc('en').copied);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(area('en').shapes.semicircle);
    expect(copied).toContain('A = π × 3² / 2 = 14.137167 cm²');

    const other = await context.newPage();
    await open(other, link);
    await expect(result(other)).toHaveText('14.137167 cm²');

    await page.getByRole('button', { name: calc('en').reset }).click();
    await expect(page.locator('#area-shape')).toHaveValue('rectangle');
    await expect(field(page, 'l')).toHaveValue('');
    await expect(page).toHaveURL(/\/area-calculator$/);
  });

  test('works with the keyboard alone', async ({ page }) => {
    await open(page, base.en);
    await page.locator('#area-shape').focus();
    await page.keyboard.press('End'); // the last shape: the irregular polygon
    await expect(page.locator('#area-shape')).toHaveValue('polygon');
    await page.keyboard.press('Home');
    await expect(page.locator('#area-shape')).toHaveValue('square');
    await page.keyboard.press('Tab'); // the length unit
    await page.keyboard.press('Tab');
    await expect(field(page, 's')).toBeFocused();
    await page.keyboard.type('4');
    await expect(result(page)).toHaveText('16 m²');
    await page.keyboard.press('Tab'); // the area unit
    await page.keyboard.press('Tab'); // decimals
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: calc('en').saveToHistory })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('.action-status')).toHaveText(calc('en').saved);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: calc('en').copyResult })).toBeFocused();
  });

  test('has no axe violations with a result and with an error on screen', async ({ page }) => {
    await open(page, `${base.en}?shape=trapezoid&a=10&b=6&h=4&c=5&d=4.5`);
    await expect(result(page)).toHaveText('32 m²');
    let axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await field(page, 'c').fill('2');
    await expect(fieldError(page, 'c')).toHaveText(area('en').errors.shorterThanHeight);
    axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
  });
});

test.describe('in German', () => {
  test('reads and writes the decimal comma, and explains errors in German', async ({ page }) => {
    await open(page, base.de);
    await field(page, 'l').fill('12,5');
    await field(page, 'w').fill('8');
    await expect(result(page)).toHaveText('100 m²');
    await expect(page.locator('.formula')).toContainText('A = 12,5 × 8 = 100 m²');
    await expect(page).toHaveURL(/\?l=12\.5&w=8$/);
    await field(page, 'w').fill('1.234,5');
    await expect(result(page)).toHaveText('15.431,25 m²');
    await field(page, 'w').fill('zwölf');
    await field(page, 'w').blur();
    await expect(fieldError(page, 'w')).toHaveText(calc('de').errors.notANumber.replace('{{example}}', '1,5'));
    await noNaN(page);
  });

  test('opens a link made on an English page in German notation', async ({ page }) => {
    await open(page, `${base.de}?shape=circle&r=2.5`);
    await expect(field(page, 'r')).toHaveValue('2,5');
    await expect(result(page)).toHaveText('19,634954 m²');
    await expect(page.locator('label[for="area-r"]')).toContainText(area('de').fields.radius);
  });

  test('takes vertices as x;y', async ({ page }) => {
    await open(page, `${base.de}?shape=polygon`);
    await field(page, 'vertices').fill('0;0\n4,5;0\n4,5;2');
    await expect(result(page)).toHaveText('4,5 m²');
  });
});

test.describe('in Japanese', () => {
  test('computes, and explains errors in Japanese', async ({ page }) => {
    await open(page, base.jp);
    await expect(page.locator('label[for="area-shape"]')).toHaveText(area('jp').shape);
    await page.locator('#area-shape').selectOption('circle');
    await field(page, 'r').fill('３'); // a full-width digit from an IME
    await expect(result(page)).toHaveText('28.274334 m²');
    await expect(page.locator('.result-label').first()).toHaveText(area('jp').area);
    await field(page, 'r').fill('0');
    await field(page, 'r').blur();
    await expect(fieldError(page, 'r')).toHaveText(calc('jp').errors.mustBePositive);
    await page.locator('#area-shape').selectOption('annulus');
    await field(page, 'outer').fill('2');
    await field(page, 'inner').fill('3');
    await expect(fieldError(page, 'inner')).toHaveText(area('jp').errors.innerNotSmaller);
    await noNaN(page);
  });
});

test("each calculator's code is in the first load of its own pages only", async ({ request }) => {
  const { routes } = await import('./fixtures');
  const preloads = async (path: string) =>
    [...(await (await request.get(path)).text()).matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  for (const { page, path } of routes) {
    const files = (await preloads(path)).join(' ');
    // Only a tool page preloads anything: the islands of the others wait for idle.
    expect(/\/assets\/[^ ]*/.test(files), path).toBe(page.nav === 'tool');
    for (const [tool, feature] of [
      ['area-calculator', 'area'],
      ['speed-calculator', 'speed'],
    ]) {
      expect(files.includes(`/assets/${feature}-`), `${path} and ${tool}`).toBe(page.name === tool);
    }
  }
});
