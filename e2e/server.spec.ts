// What the binary serves beside pages: sitemaps (schema-valid), robots, error pages, headers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseURL } from './playwright.config';
import { expect, messages, site, test } from './fixtures';

const sitemaps = ['/sitemap.xml', ...site.locales.filter((l) => l.code !== 'en').map((l) => `/${l.code}/sitemap.xml`)];
const schema = join(import.meta.dirname, 'schema/sitemap-hreflang.xsd');

test('every sitemap is valid against the sitemaps.org schema with xhtml:link alternates', async ({ request }) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemaps-'));
  for (const path of sitemaps) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type']).toMatch(/xml/);
    const body = await res.text();
    expect(body.match(/<url>/g), path).toHaveLength(site.pages.length);
    expect(body.match(/<xhtml:link /g), path).toHaveLength(site.pages.length * (site.locales.length + 1));
    const file = join(dir, path.replaceAll('/', '_'));
    writeFileSync(file, body);
    // xmllint exits non-zero, and the test fails, on any schema error.
    execFileSync('xmllint', ['--nonet', '--noout', '--schema', schema, file], { stdio: 'pipe' });
  }
});

test('robots.txt names all eight sitemaps with absolute URLs', async ({ request }) => {
  const body = await (await request.get('/robots.txt')).text();
  for (const path of sitemaps) expect(body).toContain(`Sitemap: ${baseURL}${path}`);
});

test('unknown paths get the styled 404 page in the language of their prefix', async ({ page }) => {
  for (const [path, code] of [
    ['/nope', 'en'],
    ['/jp/nope', 'jp'],
    ['/de/faq/extra', 'de'],
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.locator('h1')).toHaveText(messages(code).errors.notFound.title);
    await expect(page.locator('html')).toHaveAttribute('lang', site.locales.find((l) => l.code === code)!.lang);
    await expect(page.locator('head style')).toHaveCount(1); // styled, by the inline stylesheet
  }
});

test('a failed route validation says which path', async ({ page }) => {
  const res = await page.goto('/xx/faq');
  expect(res?.status()).toBe(404);
  await expect(page.locator('.error-detail')).toHaveText('Page Not Found: /xx/faq');
});

test('bots get the status and a plain line, never a redirect', async ({ request }) => {
  const bot = { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
  const missing = await request.get('/nope', { headers: bot });
  expect(missing.status()).toBe(404);
  expect(missing.headers()['content-type']).toMatch(/^text\/plain/);
  expect((await missing.text()).trim().split('\n')).toHaveLength(1);

  const root = await request.get('/', { headers: { ...bot, 'Accept-Language': 'de' }, maxRedirects: 0 });
  expect(root.status()).toBe(200);
  expect(root.headers()['set-cookie']).toBeUndefined();
});

test('pages carry security headers and a strict CSP, and revalidate with ETags', async ({ request }) => {
  const res = await request.get('/de/faq', { headers: { 'Accept-Encoding': 'br' } });
  const h = res.headers();
  expect(h['content-security-policy']).toContain("script-src 'self'");
  expect(h['content-security-policy']).not.toContain('unsafe-inline');
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['cache-control']).toBe('no-cache');
  expect(h['content-encoding']).toBe('br');
  const again = await request.get('/de/faq', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': h.etag } });
  expect(again.status()).toBe(304);

  const meta = (await (await request.get('/builds/latest.json')).json()) as { id: string };
  const asset = (await (await request.get(`/builds/meta/${meta.id}.json`)).json()) as { prerendered: string[] };
  expect(asset.prerendered).toHaveLength(56);
});

test('trailing slashes and /ja redirect permanently', async ({ request }) => {
  for (const [from, to] of [
    ['/de/faq/', '/de/faq'],
    ['/ja/faq?x=1', '/jp/faq?x=1'],
  ]) {
    const res = await request.get(from, { maxRedirects: 0 });
    expect(res.status(), from).toBe(301);
    expect(res.headers().location).toBe(to);
  }
});
