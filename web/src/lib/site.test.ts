import { describe, expect, it } from 'vitest';
import { localeOfPath, matchRule, pagePath, payloadPath, resolve, routeName, routes } from './site';

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

describe('route rules', () => {
  it.each([
    ['/de/faq/', '/de/faq', 301],
    ['/faq/', '/faq', 301],
    ['/ja', '/jp', 301],
    ['/ja/faq', '/jp/faq', 301],
    ['/ja/', '/ja', 301],
  ])('redirects %s to %s', (from, to, status) => {
    expect(matchRule(from)).toEqual({ to, status });
  });

  it.each(['/', '/de/faq', '/jap', '//evil.example/', '/\\evil.example/', '/ja//evil.example'])('leaves %s alone', (path) => {
    // The last three would otherwise lead to another host: an open redirect.
    expect(matchRule(path)).toBeUndefined();
  });

  it('defaults to 307 and handles exact and captured rules', () => {
    const rules = [
      { from: '/old', to: '/new' },
      { from: '/docs/**', to: 'https://docs.example/**' },
    ];
    expect(matchRule('/old', rules)).toEqual({ to: '/new', status: 307 });
    expect(matchRule('/docs/a/b', rules)).toEqual({ to: 'https://docs.example/a/b', status: 307 });
    expect(matchRule('/docs/', rules)).toBeUndefined();
  });
});
