// The image flipper's page as its tests drive it: its messages, and opening images in it.
import type { Page } from '@playwright/test';
import { expect, hydrated, namespaceMessages } from './fixtures';

type FlipMessages = typeof import('../web/src/features/flip/locales/en.json');
export const flip = (code: string) => namespaceMessages<FlipMessages>('flip', code);

/** Loads the flipper at `path` and opens PNG files in it, until the stage shows the first. */
export async function openWith(page: Page, path: string, files: { name: string; buffer: Buffer }[]) {
  await page.goto(path);
  await hydrated(page);
  await page.locator('input[type="file"]').setInputFiles(files.map((f) => ({ ...f, mimeType: 'image/png' })));
  await expect(page.locator('.flip-item')).toHaveCount(files.length);
  await expect(page.locator('.flip-view')).toBeVisible();
}
