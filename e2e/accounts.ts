// Signing up and in through the account dialog, as a visitor does: shared by the account and the
// history's sync tests.
import type { Locator, Page } from '@playwright/test';
import { expect, namespaceMessages } from './fixtures';

type AccountMessages = typeof import('../web/src/features/account/locales/en.json');
const m = namespaceMessages<AccountMessages>('account', 'en');

export const password = 'correct horse battery';

let serial = 0;
/** An address no other test (or earlier run) uses. */
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${process.pid}-${++serial}@example.com`;

export const accountButton = (page: Page) => page.locator('header .account-button');
export const dialog = (page: Page) => page.locator('dialog.account-dialog');

export async function openDialog(page: Page): Promise<Locator> {
  await accountButton(page).click();
  await expect(dialog(page)).toBeVisible();
  return dialog(page);
}

/** Leaves the dialog once the overlay has faded and no toast covers the page. */
export async function settle(page: Page) {
  await expect(page.locator('.loading-overlay')).toHaveCount(0);
}

export async function signUp(page: Page, email: string, displayName = ''): Promise<void> {
  const d = await openDialog(page);
  await d.locator('.account-switch button').click();
  await expect(d.getByRole('heading', { name: m.signUp })).toBeVisible();
  await d.getByLabel(m.email).fill(email);
  await d.getByLabel(m.password, { exact: true }).fill(password);
  if (displayName) await d.getByLabel(m.displayNameOptional).fill(displayName);
  await d.getByRole('button', { name: m.signUp, exact: true }).click();
  // Exactly "Account": the sign-up form's own heading, "Create account", contains the word, and
  // matching it let the test move on before the account existed.
  await expect(d.getByRole('heading', { name: m.title, exact: true })).toBeVisible();
  await settle(page);
}

export async function signIn(page: Page, email: string, pass = password): Promise<void> {
  const d = await openDialog(page);
  await d.getByLabel(m.email).fill(email);
  await d.getByLabel(m.password, { exact: true }).fill(pass);
  await d.getByRole('button', { name: m.signIn, exact: true }).click();
}

export async function closeDialog(page: Page) {
  await dialog(page).locator('.account-close').click();
  await expect(dialog(page)).toHaveCount(0);
}
