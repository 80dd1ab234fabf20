import { describe, expect, it } from 'vitest';
import ruleCases from '../../../internal/site/testdata/rules.json';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { localeOfPath, pageFeatures, pagePath, payloadPath, redirect, resolve, routeName, routeRules, routes } from './site';

describe('site table', () => {
  it('has 7 pages in 8 locales', () => {
    expect(routes).toHaveLength(56);
    expect(new Set(routes.map((r) => routeName(r.page, r.locale))).size).toBe(56);
    expect(routeName('flip-image', 'jp')).toBe('flip-image___jp');
  });

  it.each([
    ['index', 'en', '/'],
    ['index', 'de', '/de'],
    ['faq', 'en', '/faq'],
    ['faq', 'jp', '/jp/faq'],
    ['area-calculator', 'zh', '/zh/area-calculator'],
  ] as const)('builds the path of %s in %s', (page, code, path) => {
    expect(pagePath(page, code)).toBe(path);
    expect(resolve(path)).toEqual({ page, locale: code });
  });

  it.each(['/faq/', '/xx/faq', '/en/faq', '/de/', '/ja', '/nope', ''])('resolves no route for %s', (path) => {
    expect(resolve(path)).toBeUndefined();
  });

  it('takes the language of an unknown path from its prefix', () => {
    expect(localeOfPath('/de/nope')).toBe('de');
    expect(localeOfPath('/jp')).toBe('jp');
    expect(localeOfPath('/xx/faq')).toBe('en');
    expect(localeOfPath('/en/faq')).toBe('en');
  });

  it('names payload files beside their page', () => {
    expect(payloadPath('/')).toBe('/_payload.json');
    expect(payloadPath('/de')).toBe('/de/_payload.json');
    expect(payloadPath('/de/faq')).toBe('/de/faq/_payload.json');
  });
});

// The same cases as the server's rules_test.go: the two implementations cannot drift.
describe('route rules (internal/site/testdata/rules.json)', () => {
  for (const suite of ruleCases.suites) {
    describe(suite.name, () => {
      it.each(suite.cases)('$path → $target $status', ({ path, target, status }) => {
        const want = status === 0 ? undefined : { to: target, status };
        expect(redirect(path, suite.rules ?? routeRules)).toEqual(want);
      });
    });
  }
});

describe('page features', () => {
  const src = join(__dirname, '..');
  it.each(Object.entries(pageFeatures))('%s is a feature folder with its page and its messages', (_, feature) => {
    for (const file of ['page.tsx', 'messages.ts', 'locales/en.json']) expect(existsSync(join(src, 'features', feature.name, file)), file).toBe(true);
    for (const ns of feature.uses ?? []) expect(existsSync(join(src, ns, 'locales/en.json')), ns).toBe(true);
  });
});
