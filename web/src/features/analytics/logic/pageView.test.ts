import { describe, expect, it } from 'vitest';
import { excluded, pageViews, referrerHost, screenClass } from './pageView';

const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

describe('screenClass', () => {
  it('splits at 600 and 1024 CSS pixels', () => {
    expect([320, 599, 600, 1023, 1024, 2560].map(screenClass)).toEqual(['phone', 'phone', 'tablet', 'tablet', 'desktop', 'desktop']);
  });
});

describe('referrerHost', () => {
  it('gives the host name of another site, without port, path or credentials', () => {
    expect(referrerHost('https://example.org/some/path?q=1#x', 'handy.tools')).toBe('example.org');
    expect(referrerHost('https://www.google.com/', 'handy.tools')).toBe('www.google.com');
    expect(referrerHost('http://user:secret@example.org:8080/', 'handy.tools')).toBe('example.org');
    expect(referrerHost('android-app://com.slack/', 'handy.tools')).toBe('com.slack');
  });

  it('gives nothing for this site, for no referrer, or for what is no host', () => {
    expect(referrerHost('https://handy.tools/de/faq', 'handy.tools')).toBe('');
    expect(referrerHost('http://127.0.0.1:8391/', '127.0.0.1')).toBe('');
    expect(referrerHost('', 'handy.tools')).toBe('');
    expect(referrerHost('not a url', 'handy.tools')).toBe('');
    expect(referrerHost('about:blank', 'handy.tools')).toBe('');
  });
});

describe('excluded', () => {
  it('lets an ordinary browser through', () => {
    expect(excluded({ userAgent: chrome, webdriver: false })).toBe(false);
    expect(excluded({ userAgent: chrome })).toBe(false); // browsers without the properties
    expect(excluded({ userAgent: chrome, webdriver: false, globalPrivacyControl: false })).toBe(false);
  });

  it('stops automated browsers and Global Privacy Control', () => {
    expect(excluded({ userAgent: chrome, webdriver: true })).toBe(true);
    expect(excluded({ userAgent: chrome, globalPrivacyControl: true })).toBe(true);
  });

  it('stops user agents that say they are bots, crawlers, spiders, headless or Lighthouse', () => {
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php) Crawler',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      chrome.replace('Chrome/', 'HeadlessChrome/'),
      `${chrome} Chrome-Lighthouse`,
    ]) {
      expect(excluded({ userAgent: ua }), ua).toBe(true);
    }
  });
});

describe('pageViews', () => {
  const seen = (path: string, locale = 'en') => ({ path, locale, language: 'de-DE', width: 1280 });
  const notFound = (path: string) => ({ path, language: 'de-DE', width: 1280 });

  it('says what the server takes, the referrer on the first page view only', () => {
    const next = pageViews('example.org');
    expect(next(seen('/jp/area-calculator', 'jp'))).toEqual({ p: '/jp/area-calculator', l: 'jp', bl: 'de-DE', r: 'example.org', s: 'desktop' });
    expect(next({ path: '/faq', locale: 'en', language: 'de-DE', width: 390 })).toEqual({ p: '/faq', l: 'en', bl: 'de-DE', r: '', s: 'phone' });
  });

  it('counts a path once in a row: a query change on the same page is no new view', () => {
    const next = pageViews('');
    const paths = ['/', '/', '/speed-calculator', '/speed-calculator', '/speed-calculator', '/', '/speed-calculator'];
    expect(paths.map((p) => next(seen(p))?.p)).toEqual(['/', undefined, '/speed-calculator', undefined, undefined, '/', '/speed-calculator']);
  });

  it('counts no "Page not found", but a page after one, even the same as before it', () => {
    const next = pageViews('example.org');
    expect(next(notFound('/nope'))).toBeUndefined();
    expect(next(seen('/faq'))).toMatchObject({ p: '/faq', r: 'example.org' }); // the first page view
    expect(next(notFound('/de/nope'))).toBeUndefined();
    expect(next(seen('/faq'))).toMatchObject({ p: '/faq', r: '' });
  });
});
