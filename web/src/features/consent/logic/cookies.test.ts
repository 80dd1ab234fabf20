import { describe, expect, it } from 'vitest';
import { cookieDomains, cookieNames, deletions } from './cookies';

describe('cookieNames', () => {
  it('lists every cookie but the ones kept, once each', () => {
    const cookies = 'i18n_redirected=jp; _ga=GA1.1.123.456; XSRF-TOKEN=abc; _ga_XYZ=GS1.1.1; _gcl_au=1.1.1; _ga=again';
    expect(cookieNames(cookies, ['i18n_redirected', 'XSRF-TOKEN'])).toEqual(['_ga', '_ga_XYZ', '_gcl_au']);
  });

  it('reads names without values, and nothing from an empty string', () => {
    expect(cookieNames('flag; a=1', [])).toEqual(['flag', 'a']);
    expect(cookieNames('', ['XSRF-TOKEN'])).toEqual([]);
    expect(cookieNames(' ; ', [])).toEqual([]);
  });
});

describe('cookieDomains', () => {
  it('gives the host and each parent domain', () => {
    expect(cookieDomains('www.shop.example.co.uk')).toEqual(['www.shop.example.co.uk', 'shop.example.co.uk', 'example.co.uk', 'co.uk']);
    expect(cookieDomains('handy.example')).toEqual(['handy.example']);
  });

  it('gives only the host for an address or a single label', () => {
    expect(cookieDomains('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(cookieDomains('localhost')).toEqual(['localhost']);
    expect(cookieDomains('::1')).toEqual(['::1']);
  });
});

describe('deletions', () => {
  it('expires each cookie on path /, host-only and on every domain', () => {
    expect(deletions(['_ga'], 'www.handy.example')).toEqual([
      '_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/',
      '_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=www.handy.example',
      '_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=handy.example',
    ]);
    expect(deletions([], 'handy.example')).toEqual([]);
  });
});
