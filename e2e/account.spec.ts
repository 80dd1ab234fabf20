// Accounts in a real browser, against the real server (a throwaway database, see
// playwright.config.ts): signing up, out and in; errors next to the fields; preferences that the
// calculators open with; an avatar cropped in the browser; export; an expired token; deleting
// the account; changing the password and signing out everywhere; the dialog by keyboard, at
// 320 px and under axe; and proof that a visitor
// without a token loads none of it.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, hydrated, messages, namespaceMessages, site, test } from './fixtures';
import { accountButton, closeDialog, dialog, openDialog, password, settle, signIn, signUp, uniqueEmail } from './accounts';
import { decode, gradient, png } from './images';

type AccountMessages = typeof import('../web/src/features/account/locales/en.json');
const m = namespaceMessages<AccountMessages>('account', 'en');
const en = messages('en');
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

async function open(page: Page, path = '/') {
  await page.goto(path);
  await hydrated(page);
}

/** The signed-in visitor's profile, straight from the server. */
async function serverProfile(page: Page) {
  return page.evaluate(async () => {
    const res = await fetch('/api/v1/auth/me', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return (await res.json()) as { user: { id: string; email: string }; profile: { displayName: string; avatar: string | null; preferences: unknown } };
  });
}

/** Failed loads (a 401, a refused sign-in) are expected here; anything else in the console is not. */
const unexpected = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource'));

test('signs up, out and in, with errors next to the fields and the form kept', async ({ page, consoleErrors }) => {
  const email = uniqueEmail('ada');
  await open(page);
  await expect(accountButton(page)).toHaveAccessibleName(en.nav.signIn);

  // Mistakes caught before sending, each next to its field.
  let d = await openDialog(page);
  await d.locator('.account-switch button').click();
  await d.getByLabel(m.email).fill('ada');
  await d.getByLabel(m.password, { exact: true }).fill('short');
  await d.getByRole('button', { name: m.signUp, exact: true }).click();
  await expect(d.locator('#account-email-error')).toHaveText(m.errors['invalid-email']);
  const { passwordMinLength, passwordMaxLength } = site.limits;
  await expect(d.locator('#account-password-error')).toHaveText(
    m.errors['invalid-password'].replace('{{min}}', String(passwordMinLength)).replace('{{max}}', String(passwordMaxLength)),
  );
  await expect(d.getByLabel(m.email)).toBeFocused();
  await expect(d.getByLabel(m.email)).toHaveAttribute('aria-invalid', 'true');
  // The show button reveals what was typed.
  await d.getByRole('button', { name: m.showPassword }).click();
  await expect(d.locator('#account-password')).toHaveAttribute('type', 'text');
  await closeDialog(page);

  await signUp(page, email, 'Ada');
  await expect(toast(page, m.signedUp)).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(`Account: Ada (${email})`);
  await expect(accountButton(page).locator('.account-avatar')).toHaveText('A');
  expect(await storedToken(page)).toBeTruthy();

  // Signed in: the dialog shows the account; signing out forgets the token.
  d = dialog(page);
  await expect(d).toContainText(m.signedInAs.replace('{{email}}', email));
  await d.getByRole('button', { name: m.signOut }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(toast(page, m.signedOut)).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(en.nav.signIn);
  expect(await storedToken(page)).toBeNull();

  // The same address again: taken, said at the email field; the form keeps what was typed.
  d = await openDialog(page);
  await d.locator('.account-switch button').click();
  await d.getByLabel(m.email).fill(email);
  await d.getByLabel(m.password, { exact: true }).fill(password);
  await d.getByRole('button', { name: m.signUp, exact: true }).click();
  await expect(d.locator('#account-email-error')).toHaveText(m.errors['email-taken']);
  await expect(d.getByLabel(m.email)).toHaveValue(email);
  await expect(d.getByLabel(m.password, { exact: true })).toHaveValue(password);
  await closeDialog(page);

  // A wrong password: one message for both fields, never saying which was wrong; no toast.
  await signIn(page, email, 'not the password');
  d = dialog(page);
  await expect(d.locator('#account-form-error')).toHaveText(m.errors['wrong-credentials']);
  await expect(d.getByLabel(m.email)).toHaveValue(email);
  await expect(d.getByLabel(m.email)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.toast')).toHaveCount(0);
  await d.getByLabel(m.password, { exact: true }).fill(password);
  await d.getByRole('button', { name: m.signIn, exact: true }).click();
  await expect(toast(page, m.signedIn.replace('{{name}}', 'Ada'))).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(`Account: Ada (${email})`);

  // The session outlives the page: a reload shows the account again.
  await page.reload();
  await hydrated(page);
  await expect(accountButton(page)).toHaveAccessibleName(`Account: Ada (${email})`);
  expect(unexpected(consoleErrors)).toEqual([]);
});

test('says when to try again after too many failed sign-ins', async ({ page }) => {
  const email = uniqueEmail('guess');
  await open(page);
  await signIn(page, email, 'wrong password 1');
  const d = dialog(page);
  const error = d.locator('#account-form-error');
  await expect(error).toHaveText(m.errors['wrong-credentials']);
  // The server allows five failures per account in its window; the sixth is refused.
  for (let i = 2; i <= 6; i++) {
    await settle(page);
    await d.getByRole('button', { name: m.signIn, exact: true }).click();
    if (i < 6) await expect(error).toHaveText(m.errors['wrong-credentials']);
  }
  const [before, after] = m.errors['rate-limited'].split('{{time}}') as [string, string];
  await expect(error).toHaveText(new RegExp(`^${escapeRegExp(before)}\\d{1,2}:\\d\\d( [AP]M)?${escapeRegExp(after)}$`));
});

test('saves preferences that the calculators open with, and applies the theme', async ({ page }) => {
  await open(page);
  await signUp(page, uniqueEmail('prefs'));
  const d = dialog(page);
  await d.getByRole('tab', { name: m.tabs.preferences }).click();
  await expect(d.getByRole('tab', { name: m.tabs.preferences })).toHaveAttribute('aria-selected', 'true');
  const area = d.getByRole('group', { name: en.pages['area-calculator'].label });
  await area.locator('#account-area-unit').selectOption('cm');
  await area.locator('#account-area-dp').selectOption('2');
  await d.locator('#account-theme').selectOption('dark');
  await d.getByRole('button', { name: m.savePrefs }).click();
  await expect(toast(page, m.prefsSaved)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Saved into the synced copy at once, then sent: the server has them moments later.
  await expect.poll(async () => (await serverProfile(page)).profile.preferences).toEqual({
    theme: 'dark',
    language: 'en',
    tools: {
      'area-calculator': { unit: 'cm', in: '', dp: '2' },
      'speed-calculator': { vu: 'km-h', du: 'km', dp: '6' },
    },
  });

  // Another language: a link to this page in it.
  await d.locator('#account-language').selectOption('de');
  await expect(d.getByRole('link', { name: m.openIn.replace('{{language}}', 'Deutsch') })).toHaveAttribute('href', '/de');
  await closeDialog(page);

  // A new page load: the session comes back, and the area calculator opens in cm with 2 decimals.
  await open(page, '/area-calculator');
  await expect(page.locator('#area-unit')).toHaveValue('cm');
  await expect(page.locator('#area-dp')).toHaveValue('2');
  await page.locator('#area-l').fill('1.23456');
  await page.locator('#area-w').fill('1');
  await expect(page.locator('.result-main output')).toHaveText('1.23 cm²');
  // A link that names its units keeps them.
  await open(page, '/area-calculator?unit=ft');
  await expect(page.locator('#area-unit')).toHaveValue('ft');
  await expect(page.locator('#area-dp')).toHaveValue('2');
});

test('crops an avatar to a 256 × 256 JPEG, shown in the header and kept by the server', async ({ page }) => {
  await open(page);
  await signUp(page, uniqueEmail('avatar'));
  const d = dialog(page);
  await d.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(gradient(12, 9)) });
  await expect(d.getByRole('heading', { name: m.cropHeading })).toBeFocused();
  await expect(d.locator('.cropper')).toHaveAttribute('data-state', 'loaded');
  await d.getByRole('button', { name: m.saveAvatar }).click();
  await expect(toast(page, m.avatarSaved)).toBeVisible();
  await expect(d.getByRole('button', { name: m.removeAvatar })).toBeVisible();

  const img = accountButton(page).locator('.account-avatar img');
  await expect(img).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
  const { profile } = await serverProfile(page);
  expect(profile.avatar).toMatch(/^data:image\/jpeg;base64,/);
  expect(await img.getAttribute('src')).toBe(profile.avatar);
  const bytes = Buffer.from(profile.avatar!.slice('data:image/jpeg;base64,'.length), 'base64');
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  const pixels = await decode(page, bytes);
  expect([pixels.width, pixels.height]).toEqual([256, 256]);

  // Removed again: the initial comes back.
  await d.getByRole('button', { name: m.removeAvatar }).click();
  await expect(toast(page, m.avatarRemoved)).toBeVisible();
  await expect(img).toHaveCount(0);
  expect((await serverProfile(page)).profile.avatar).toBeNull();
});

test('exports all of the account data as JSON', async ({ page }) => {
  const email = uniqueEmail('export');
  await open(page);
  await signUp(page, email, 'Exporter');
  const d = dialog(page);
  await d.getByRole('tab', { name: m.tabs.data }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), d.getByRole('button', { name: m.export }).click()]);
  expect(download.suggestedFilename()).toBe('handy-tools-account.json');
  const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    user: { id: string; email: string };
    documents: { path: string; fields: { displayName: string; locale: string } }[];
  };
  expect(data.user.email).toBe(email);
  const own = data.documents.find((doc) => doc.path === `users/${data.user.id}`);
  expect(own?.fields).toMatchObject({ displayName: 'Exporter', locale: 'en' });
  await expect(toast(page, m.exported)).toBeVisible();
});

test('an expired or unknown token: the session-expired toast, then signed out', async ({ page }) => {
  await open(page);
  await page.evaluate(() => localStorage.setItem('token', 'not-a-token-the-server-knows'));
  await page.reload();
  await hydrated(page);
  await expect(toast(page, en.http['401'])).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(en.nav.signIn);
  expect(await storedToken(page)).toBeNull();
});

test('deletes the account: a wrong password is refused, the right one erases it', async ({ page }) => {
  const email = uniqueEmail('delete');
  await open(page);
  await signUp(page, email);
  const d = dialog(page);
  await d.getByRole('tab', { name: m.tabs.data }).click();
  const field = d.locator('#account-delete-password');

  await field.fill('not the password');
  await d.getByRole('button', { name: m.delete, exact: true }).click();
  const confirm = d.getByRole('group', { name: m.confirmDelete.replace('{{email}}', email) });
  await expect(confirm.getByRole('button', { name: m.cancel })).toBeFocused(); // the safe choice
  await confirm.getByRole('button', { name: m.confirmYes }).click();
  await expect(d.locator('#account-delete-password-error')).toHaveText(m.errors['wrong-password']);
  await expect(field).toBeFocused();
  await expect(accountButton(page)).toHaveAccessibleName(`Account: ${email}`);

  await field.fill(password);
  await d.getByRole('button', { name: m.delete, exact: true }).click();
  await d.getByRole('button', { name: m.confirmYes }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(toast(page, m.deleted)).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(en.nav.signIn);
  expect(await storedToken(page)).toBeNull();

  await signIn(page, email);
  await expect(dialog(page).locator('#account-form-error')).toHaveText(m.errors['wrong-credentials']);
});

/** A second device (a browser context of its own), signed in to the account. */
async function secondDevice(browser: Browser, email: string): Promise<Page> {
  const other = await browser.newPage();
  await open(other);
  await signIn(other, email);
  await expect(accountButton(other)).toHaveAccessibleName(`Account: ${email}`);
  await other.keyboard.press('Escape');
  return other;
}

test('changes the password: the current one first, every other device signed out, this one kept', async ({ page, browser }) => {
  const email = uniqueEmail('password');
  await open(page);
  await signUp(page, email);
  const other = await secondDevice(browser, email); // signed in with the old password

  const d = dialog(page);
  await d.getByRole('tab', { name: m.tabs.security }).click();
  const current = d.locator('#account-current-password');
  const next = d.locator('#account-new-password');
  await current.fill('not the password');
  await next.fill('a brand new password');
  await d.getByRole('button', { name: m.security.change }).click();
  await expect(d.locator('#account-current-password-error')).toHaveText(m.errors['wrong-password']);
  await expect(current).toBeFocused();

  await current.fill(password);
  await next.fill('short');
  await d.getByRole('button', { name: m.security.change }).click();
  await expect(d.locator('#account-new-password-error')).not.toBeEmpty();
  await expect(next).toBeFocused();

  await next.fill('a brand new password');
  await d.getByRole('button', { name: m.security.change }).click();
  await expect(toast(page, m.security.changed)).toBeVisible();
  await expect(current).toHaveValue('');
  expect((await serverProfile(page)).user.email).toBe(email); // this device is still signed in

  await other.reload();
  await hydrated(other);
  await expect(toast(other, en.http['401'])).toBeVisible();
  await expect(accountButton(other)).toHaveAccessibleName(en.nav.signIn);
  await signIn(other, email, 'a brand new password');
  await expect(accountButton(other)).toHaveAccessibleName(`Account: ${email}`);
  await other.close();
});

test('signs out everywhere: this device and every other one', async ({ page, browser }) => {
  const email = uniqueEmail('everywhere');
  await open(page);
  await signUp(page, email);
  const other = await secondDevice(browser, email);

  const d = dialog(page);
  await d.getByRole('tab', { name: m.tabs.security }).click();
  await d.getByRole('button', { name: m.security.everywhere }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(toast(page, m.security.signedOutEverywhere)).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName(en.nav.signIn);
  expect(await storedToken(page)).toBeNull();

  await other.reload();
  await hydrated(other);
  await expect(accountButton(other)).toHaveAccessibleName(en.nav.signIn);
  await other.close();
});

test('works by keyboard: opens, keeps focus inside, Esc closes and focus returns', async ({ page }) => {
  const email = uniqueEmail('keys');
  await open(page);
  await accountButton(page).focus();
  await page.keyboard.press('Enter');
  const d = dialog(page);
  await expect(d.getByLabel(m.email)).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(d.getByLabel(m.password, { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(d).toHaveCount(0);
  await expect(accountButton(page)).toBeFocused();

  // Sign up by keyboard alone, then move between the tabs with the arrow keys.
  await page.keyboard.press('Enter');
  await d.locator('.account-switch button').focus();
  await page.keyboard.press('Enter');
  await expect(d.getByRole('heading', { name: m.signUp })).toBeFocused();
  await d.getByLabel(m.email).focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter'); // submits the form
  await expect(d.getByRole('tab', { name: m.tabs.profile })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(d.getByRole('tab', { name: m.tabs.preferences })).toBeFocused();
  await expect(d.getByRole('tabpanel')).toContainText(m.prefsIntro);
  await page.keyboard.press('End');
  await expect(d.getByRole('tab', { name: m.tabs.data })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(d).toHaveCount(0);
  await expect(accountButton(page)).toBeFocused();
});

test('has no axe violations, signed out and signed in, in both themes', async ({ page }) => {
  const scan = async (what: string) => {
    await settle(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).include('dialog.account-dialog').analyze();
      expect(axe.violations.map((v) => `${what} ${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    }
  };
  await open(page);
  const d = await openDialog(page);
  await d.getByRole('button', { name: m.signIn, exact: true }).click(); // with errors on screen
  await expect(d.locator('#account-email-error')).not.toBeEmpty();
  await scan('sign-in');
  await closeDialog(page);

  await signUp(page, uniqueEmail('axe'), 'Axe');
  for (const tab of [m.tabs.profile, m.tabs.preferences, m.tabs.data]) {
    await d.getByRole('tab', { name: tab }).click();
    await scan(tab);
  }
  // The header with the signed-in button, too.
  await closeDialog(page);
  const header = await new AxeBuilder({ page }).include('header').analyze();
  expect(header.violations.map((v) => v.id)).toEqual([]);
});

test('is usable on a 320 px wide phone', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await open(page);
  await expect(accountButton(page)).toBeInViewport();
  await signUp(page, uniqueEmail('phone'));
  const d = dialog(page);
  for (const tab of [m.tabs.profile, m.tabs.preferences, m.tabs.data]) {
    await d.getByRole('tab', { name: tab }).click();
    const box = (await d.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    // Nothing wider than the dialog: no sideways scrolling.
    expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await d.getByRole('button', { name: m.export }).scrollIntoViewIfNeeded();
  await expect(d.getByRole('button', { name: m.export })).toBeInViewport();
});

test.describe('page weight', () => {
  // The account's chunks, from the build's manifest: the runtime, the dialog, and its messages.
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../web/build/client/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const fileOf = (key: string) => `/${manifest[key].file}`;
  const runtime = fileOf('src/features/account/AccountRoot.tsx');
  const dialogChunk = fileOf('src/features/account/AccountDialog.tsx');
  const accountMessages = Object.keys(manifest)
    .filter((k) => k.startsWith('src/features/account/locales/'))
    .map(fileOf);

  /** The paths requested during action, until settled (by default, until the network is idle:
   * not with a session, whose sync holds a long poll open). */
  const requestsDuring = async (page: Page, action: () => Promise<void>, settled: () => Promise<unknown> = () => page.waitForLoadState('networkidle')) => {
    const urls: string[] = [];
    const record = (r: { url(): string }) => urls.push(new URL(r.url()).pathname);
    page.on('request', record);
    await action();
    await settled();
    page.off('request', record);
    return urls;
  };
  const responseTo = (page: Page, path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === path);

  test('a visitor without a token loads nothing of the account', async ({ page }) => {
    for (const path of ['/', '/jp/flip-image', '/area-calculator']) {
      const urls = await requestsDuring(page, () => open(page, path));
      expect(urls.filter((u) => u === runtime || u === dialogChunk || accountMessages.includes(u) || u.startsWith('/api/'))).toEqual([]);
    }
  });

  test('a stored token loads the account runtime in the background, the dialog only when opened', async ({ page }) => {
    await open(page);
    await signUp(page, uniqueEmail('weight'));
    // The runtime loads when the page is idle, which can come after the network first settles:
    // wait for the session check it makes.
    const checked = responseTo(page, '/api/v1/auth/me');
    let urls = await requestsDuring(
      page,
      async () => {
        await open(page, '/faq');
        await checked;
      },
      () => page.waitForLoadState('load'),
    );
    expect(urls).toContain(runtime);
    expect(urls).toContain('/api/v1/auth/me');
    expect(urls).not.toContain(dialogChunk);
    const dialogLoaded = responseTo(page, dialogChunk);
    urls = await requestsDuring(page, () => openDialog(page).then(() => undefined), () => dialogLoaded);
    expect(urls).toContain(dialogChunk);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
