#!/usr/bin/env node
// Screenshots of every page type, for a reviewer: `make screenshots` (after `make build`).
//
//   node scripts/screenshots/screenshots.mjs [OUT_DIR]      (default web/build/screenshots)
//
// Starts ./handy on a free loopback port and, in headless Chromium (scripts/tools/chromium.json),
// takes a full-page PNG of each page of internal/site/site.json in English and Japanese, at
// phone width (390 px) and desktop width (1280 px), in the light and the dark theme:
// {page}-{locale}-{phone|desktop}-{light|dark}.png. The FAQ is taken with its first answer
// open; the image flipper a second time with two images open, one flipped, as the window shows
// it (flip-image-open-…png), and a third time at 100 % (flip-image-zoom-…png). The operator's dashboard ("admin") is taken too, after a few page views sent through
// the real beacon endpoint, with the token typed in. Env: SHOT_LOCALES ("en,jp"), SHOT_PAGES
// (page names, comma-separated; "admin" for the dashboard), CHROME_PATH.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startHandy } from '../../e2e/support/handy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const site = JSON.parse(readFileSync(join(root, 'internal/site/site.json'), 'utf8'));
const browserConfig = JSON.parse(readFileSync(join(root, 'scripts/tools/chromium.json'), 'utf8'));
const out = process.argv[2] || join(root, 'web/build/screenshots');
const locales = (process.env.SHOT_LOCALES || 'en,jp').split(',');
const pageNames = process.env.SHOT_PAGES ? process.env.SHOT_PAGES.split(',') : [...site.pages.map((p) => p.name), 'admin'];
const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const themes = ['light', 'dark'];

/** A PNG (8-bit RGB) of width × height whose pixel colours `color(x, y)` gives. */
function png(width, height, color) {
  const chunk = (type, body) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set(color(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

// A landscape "photo" (sky, sun, hills; larger than the page's preview, for 100 %) and a
// portrait one, so that a flip shows.
const photos = [
  {
    name: 'hills.png',
    mimeType: 'image/png',
    buffer: png(1600, 1000, (px, py) => {
      const [x, y] = [px / 2.5, py / 2.5];
      if ((x - 170) ** 2 + (y - 110) ** 2 < 45 ** 2) return [250, 200, 60];
      if (y > 260 + 40 * Math.sin(x / 70)) return [40, 120 + (y >> 3) + ((px ^ py) & 7), 60]; // grass
      return [90 + (y >> 2), 150 + (y >> 3), 230];
    }),
  },
  { name: 'portrait.png', mimeType: 'image/png', buffer: png(300, 450, (x, y) => [40, Math.round((200 * x) / 300), Math.round((255 * y) / 450)]) },
];

function pageURL(base, code, path) {
  if (code === site.defaultLocale) return base + path;
  return `${base}/${code}${path === '/' ? '' : path}`;
}

const adminToken = randomBytes(24).toString('hex');
const handy = await startHandy({ args: ['-admin-token', adminToken], readyWithin: 30_000 });
const base = handy.url;

/** A few page views from an ordinary browser, so that the dashboard has something to show. */
async function sendViews() {
  const views = [
    ['/', 'en', 'en-US', 'www.google.com', 'desktop'],
    ['/flip-image', 'en', 'en-GB', '', 'phone'],
    ['/jp/area-calculator', 'jp', 'ja-JP', 'duckduckgo.com', 'phone'],
    ['/de/speed-calculator', 'de', 'de-DE', '', 'tablet'],
    ['/jp', 'jp', 'ja-JP', '', 'desktop'],
  ];
  const headers = { 'Content-Type': 'text/plain', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36', 'Accept-Language': 'en' };
  for (const [p, l, bl, r, s] of views) {
    const res = await fetch(`${base}/api/v1/pageviews`, { method: 'POST', headers, body: JSON.stringify({ p, l, bl, r, s }) });
    if (res.status !== 204) throw new Error(`page view: ${res.status}`);
  }
  await new Promise((r) => setTimeout(r, 1500)); // the ingest writes within a second
}
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || browserConfig.path,
  args: browserConfig.flags.filter((f) => !f.startsWith('--headless')),
});
try {
  mkdirSync(out, { recursive: true });
  if (pageNames.includes('admin')) await sendViews();
  let count = 0;
  for (const theme of themes) {
    for (const [device, viewport] of Object.entries(widths)) {
      const context = await browser.newContext({
        viewport,
        colorScheme: theme,
        deviceScaleFactor: 1,
        isMobile: device === 'phone',
        hasTouch: device === 'phone',
        bypassCSP: true, // for the style below, which the site's CSP would refuse
      });
      const page = await context.newPage();
      for (const code of locales) {
        for (const name of pageNames) {
          if (name === 'admin') {
            await page.goto(`${base}${code === site.defaultLocale ? '' : `/${code}`}/admin`);
            await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
            await page.locator('input[type=password]').fill(adminToken);
            await page.locator('main form button[type=submit]').click();
            await page.locator('.admin-totals').waitFor();
            await page.screenshot({ path: join(out, `admin-${code}-${device}-${theme}.png`), fullPage: true });
            count++;
            await page.evaluate(() => sessionStorage.clear());
            continue;
          }
          const p = site.pages.find((x) => x.name === name);
          if (!p) throw new Error(`no page named ${name}`);
          await page.goto(pageURL(base, code, p.path));
          await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
          if (name === 'faq') await page.locator('details.faq-item summary').first().click();
          // Text far from the window is not rendered (content-visibility: auto) and a whole-page
          // capture does not scroll: render it all, as a reader scrolling down sees it.
          await page.addStyleTag({ content: '.prose > * { content-visibility: visible !important; }' });
          const file = join(out, `${name}-${code}-${device}-${theme}.png`);
          await page.screenshot({ path: file, fullPage: true });
          count++;
          if (name === 'flip-image') {
            await page.locator('input[type="file"]').setInputFiles(photos);
            await page.locator('.flip-item').nth(1).waitFor();
            await page.locator('.flip-toolbar button').first().click(); // a horizontal flip
            await page.waitForTimeout(300); // its motion
            await page.screenshot({ path: join(out, `flip-image-open-${code}-${device}-${theme}.png`) });
            await page.locator('.flip-zoom-choice button').last().click(); // 100 %
            await page.waitForTimeout(500); // the full-size pixels
            await page.screenshot({ path: join(out, `flip-image-zoom-${code}-${device}-${theme}.png`) });
            count += 2;
          }
        }
      }
      await context.close();
    }
  }
  console.log(`screenshots: ${count} pages in ${out}`);
} finally {
  await browser.close();
  await handy.close();
}
