// Client-side navigation: payloads, unknown paths and other languages as full loads, chunk
// failures and the reload guard, locale chunk failures.
import { expect, failChunkUntilReload, messages, test, hydrated } from './fixtures';

test('a client-side navigation fetches the payload, not the document', async ({ page }) => {
  const documents: string[] = [];
  const payloads: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'document') documents.push(new URL(r.url()).pathname);
    if (r.url().includes('_payload.json')) payloads.push(new URL(r.url()).pathname);
  });
  await page.goto('/fr');
  await hydrated(page);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.locator('header nav a[href="/fr/speed-calculator"]').click();
  await expect(page).toHaveURL(/\/fr\/speed-calculator$/);
  await expect(page.locator('h1')).toHaveText(messages('fr').pages['speed-calculator'].heading);
  await expect(page).toHaveTitle(messages('fr').pages['speed-calculator'].title);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/fr\/speed-calculator$/);
  expect(documents).toEqual(['/fr']);
  expect(payloads).toContain('/fr/speed-calculator/_payload.json'); // preloaded or fetched on the click
  expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42); // same document

  await page.goBack();
  await expect(page.locator('h1')).toHaveText(messages('fr').pages.index.heading);
  expect(documents).toEqual(['/fr']);
});

test('a link to a section of another page opens the page at that section', async ({ page }) => {
  await page.goto('/jp/faq');
  await hydrated(page);
  const link = page.locator('main a[href^="/jp/privacy-policy#"]');
  const id = decodeURIComponent((await link.getAttribute('href'))!.split('#')[1]);
  await link.evaluate((a) => a.closest('details')?.setAttribute('open', ''));
  await link.click();
  await expect(page).toHaveURL(/\/jp\/privacy-policy#/);
  await expect(page.locator('h1')).toHaveText(messages('jp').pages['privacy-policy'].heading);
  // The section's heading at the top of the window, well down a long page.
  const section = page.locator(`[id="${id}"]`);
  await expect(section).toBeInViewport();
  const top = await section.evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(40);
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000);
});

test('a contents link scrolls to its section on a phone, in place, and back returns', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/jp/privacy-policy');
  await hydrated(page);
  // The page stays the same elements: an in-page link is no new view.
  await page.locator('h1').evaluate((h) => (h.dataset.marker = 'kept'));
  const links = page.locator('.contents a');
  for (const n of [(await links.count()) - 3, 2]) {
    const link = links.nth(n);
    const id = decodeURIComponent((await link.getAttribute('href'))!.split('#')[1]);
    await link.click();
    const section = page.locator(`[id="${id}"]`);
    await expect(section).toBeInViewport();
    expect(await section.evaluate((el) => [Math.round(el.getBoundingClientRect().top), el.matches(':target')])).toEqual([16, true]);
  }
  await page.goBack();
  await expect(page).toHaveURL(/#/);
  await page.goBack();
  await expect(page).toHaveURL(/\/jp\/privacy-policy$/);
  await expect(page.locator('h1')).toHaveAttribute('data-marker', 'kept');
});

test('back, forward and reload return to where a long page was read, on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/jp/privacy-policy');
  await hydrated(page);
  const heading = page.locator('main h2').nth(7);
  await heading.evaluate((h) => h.scrollIntoView());
  await page.mouse.wheel(0, 300);
  // Where the visitor is: kept in the history entry once scrolling pauses.
  await expect.poll(() => page.evaluate(() => (history.state as { scroll?: { y: number } } | null)?.scroll?.y === Math.round(scrollY) && scrollY > 3000)).toBe(true);
  // What the visitor sees: the heading, scrolled out of the window by 300 px. (Not a number of
  // pixels from the top: the text above was jumped over, never laid out, and counts only as an
  // estimate until it is.)
  const where = () => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top));
  const read = await where();
  expect(read).toBeLessThan(-200);

  // A link clicked where it is, without scrolling to it first (a tap on a link in view).
  await page.locator('header a[href="/jp/faq"], footer a[href="/jp/faq"]').first().evaluate((a: HTMLAnchorElement) => a.click());
  await expect(page).toHaveURL(/\/jp\/faq$/);
  expect(await page.evaluate(() => scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/jp\/privacy-policy$/);
  await expect.poll(where).toEqual(read);
  await page.goForward();
  await expect(page).toHaveURL(/\/jp\/faq$/);
  await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
  await page.goBack();
  await expect.poll(where).toEqual(read);
  await page.reload();
  await hydrated(page);
  await expect.poll(where).toEqual(read);
});

test('a link to an unknown path loads the server’s 404 page', async ({ page }) => {
  await page.goto('/de/faq');
  await hydrated(page);
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/de/gibt-es-nicht';
    a.textContent = 'broken';
    a.id = 'broken';
    document.querySelector('main')!.append(a);
  });
  const answer = page.waitForResponse((r) => r.request().resourceType() === 'document');
  await page.locator('#broken').click();
  expect((await answer).status()).toBe(404);
  await expect(page).toHaveURL(/\/de\/gibt-es-nicht$/);
  await expect(page.locator('h1')).toHaveText(messages('de').errors.notFound.title);
  await expect(page).toHaveTitle(`${messages('de').errors.notFound.title} | Handy Tools`);

  const direct = await page.request.get('/de/gibt-es-nicht');
  expect(direct.status()).toBe(404);
  expect(await direct.text()).toContain(messages('de').errors.notFound.title);
});

test('a failed island chunk reloads the target once, guarded for 10 seconds', async ({ page, consoleErrors }) => {
  let documentLoads = 0;
  page.on('request', (r) => r.resourceType() === 'document' && documentLoads++);
  // The speed calculator's island (app/islands/speed.tsx).
  await failChunkUntilReload(page, 'speed', '/speed-calculator');
  await page.goto('/faq');
  await hydrated(page);
  documentLoads = 0;
  await page.locator('header nav a[href="/speed-calculator"]').click();
  await expect(page).toHaveURL(/\/speed-calculator$/);
  await hydrated(page); // the full load (chunk failure → reload of /speed-calculator)
  expect(documentLoads).toBe(1);
  const claimed = await page.evaluate(() => sessionStorage.getItem('handy:reload:/speed-calculator'));
  expect(claimed).toMatch(/^\d+$/);
  await page.unrouteAll();

  // Again within 10 s: the guard refuses a second reload, so there is no loop.
  await page.route(/\/assets\/speed-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/faq');
  await hydrated(page);
  documentLoads = 0;
  await page.locator('header nav a[href="/speed-calculator"]').click();
  // The failure is logged, then the guard decides at once: had it allowed a reload, it would
  // have recorded its time before reloading.
  await expect.poll(() => consoleErrors.some((e) => e.startsWith('Failed to load the page /speed-calculator'))).toBe(true);
  expect(await page.evaluate(() => sessionStorage.getItem('handy:reload:/speed-calculator'))).toBe(claimed);
  expect(documentLoads).toBe(0);
  await expect(page).toHaveURL(/\/faq$/);
  consoleErrors.length = 0; // expected here
});

test('a failed locale chunk is logged and the islands go on in English', async ({ page, consoleErrors }) => {
  await page.route(/\/assets\/ko-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/ko/faq');
  await hydrated(page);
  expect(consoleErrors.some((e) => e.startsWith('Failed locale loading'))).toBe(true);
  // The prerendered page stays Korean; what the islands render comes in English.
  await expect(page.locator('h1')).toHaveText(messages('ko').pages.faq.heading);
  await expect(page.locator('header .account-label')).toHaveText(messages('en').nav.signIn);
  consoleErrors.length = 0; // expected here
});
