// A page that fails its test on any console error or uncaught exception.
import { test as base, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import site from '../internal/site/site.json' with { type: 'json' };

export { expect, site };

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await use(errors);
    },
    { auto: true },
  ],
});

export type Messages = typeof import('../web/src/i18n/locales/en.json');

export function messages(code: string): Messages {
  return JSON.parse(readFileSync(join(import.meta.dirname, `../web/src/i18n/locales/${code}.json`), 'utf8')) as Messages;
}

export function pagePath(page: string, code: string): string {
  const path = site.pages.find((p) => p.name === page)!.path;
  if (code === site.defaultLocale) return path;
  return path === '/' ? `/${code}` : `/${code}${path}`;
}

export const routes = site.locales.flatMap((l) => site.pages.map((p) => ({ locale: l, page: p, path: pagePath(p.name, l.code) })));

/** The messages of a namespace: web/src/{ns}/locales/{code}.json, or features/{ns}/ for a feature's. */
export function namespaceMessages<T = Record<string, unknown>>(ns: string, code: string): T {
  const src = join(import.meta.dirname, '../web/src');
  const dir = existsSync(join(src, ns, 'locales')) ? join(src, ns) : join(src, 'features', ns);
  return JSON.parse(readFileSync(join(dir, 'locales', `${code}.json`), 'utf8')) as T;
}

/** A message with its {{placeholders}} filled in, as the page's i18n does. */
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(values[k]));

/**
 * The elements that reach past the right edge of a page `width` CSS px wide, each as its tag,
 * class and the start of its text: [] when nothing is wider than the screen. Elements inside a
 * box that scrolls or clips sideways are the box's business, not the page's, and are left out.
 */
export function overflowing(page: import('@playwright/test').Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    return [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !clipped(el))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} to ${Math.round(el.getBoundingClientRect().right)}: ${(el.textContent ?? '').trim().slice(0, 60)}`);
  }, width);
}

/** Waits until the prerendered page is live (hydrated, runtime started). */
export async function hydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * Makes the chunk named `chunk` (an island's: app/islands/{chunk}.tsx) fail from now until
 * `target` loads as a document, so that a client-side navigation to `target` fails and
 * reloads. Until then every request fails: the page may preload the chunk at any moment (links
 * in view, a hover), and the browser retries a failed import, so failing only the first request
 * would let the navigation succeed.
 */
export async function failChunkUntilReload(page: import('@playwright/test').Page, chunk: string, target: string) {
  let failing = true;
  page.on('request', (r) => {
    if (r.resourceType() === 'document' && new URL(r.url()).pathname === target) failing = false;
  });
  await page.route(new RegExp(`/assets/${chunk}-[^/]+\\.js$`), (route) => (failing ? route.abort() : route.continue()));
}
