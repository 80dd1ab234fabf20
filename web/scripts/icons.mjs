// Makes the app's PNG icons (web/public/icons) from the logo of web/public/favicon.svg, in
// headless Chromium: the build needs no image library, so the PNGs are made once with this and
// committed. Run it again after changing the logo: node web/scripts/icons.mjs
//
// - icon-{192,512}.png: the logo as it is (rounded square), for "any" purpose;
// - maskable-{192,512}.png: a full-bleed square whose glyph stays within the 80 % safe zone the
//   platform may cut a circle or squircle from;
// - apple-touch-icon.png (180): full-bleed too (iOS rounds it itself).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(web, '..');
const logo = readFileSync(join(web, 'public/favicon.svg'), 'utf8');
const browserConfig = JSON.parse(readFileSync(join(root, 'scripts/chromium.json'), 'utf8'));

const background = /<rect[^>]*fill="([^"]+)"/.exec(logo)?.[1];
const glyph = /<path[^>]*\/>/.exec(logo)?.[0];
if (!background || !glyph) throw new Error('icons: favicon.svg is not a <rect> and a <path> as expected');

// The glyph scaled about the centre of the 32-unit square: at 0.7 its farthest corner is 10.4
// units from the centre, inside the safe zone's radius of 12.8 (40 % of the side).
const fullBleed = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/>` +
  `<g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${glyph}</g></svg>`;

const icons = [
  ['icon-192.png', 192, logo],
  ['icon-512.png', 512, logo],
  ['maskable-192.png', 192, fullBleed(0.7)],
  ['maskable-512.png', 512, fullBleed(0.7)],
  ['apple-touch-icon.png', 180, fullBleed(0.8)],
];

const out = join(web, 'public/icons');
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || browserConfig.path,
  args: browserConfig.flags.filter((f) => !f.startsWith('--headless')),
});
try {
  const page = await browser.newPage();
  for (const [name, size, svg] of icons) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
    await page.screenshot({ path: join(out, name), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    console.log(`icons: ${name} ${size}×${size}`);
  }
} finally {
  await browser.close();
}
