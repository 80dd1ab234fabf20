import { describe, expect, it } from 'vitest';
import { localeOfPath, localeUrls } from './precache';
import { route, sharePath } from './routing';

const origin = 'https://tools.example';
const req = (path: string, method = 'GET', mode: RequestMode = 'cors', at = origin) => ({ method, url: new URL(path, at), mode, origin });

describe('how the service worker answers a request', () => {
  it('never keeps the API, the build check or its own script', () => {
    for (const path of ['/api/v1/auth/me', '/api/v1/db/commit', '/builds/latest.json', '/builds/meta/abc.json', '/sw.js']) {
      expect(route(req(path)), path).toBe('pass');
    }
    expect(route(req('/api/v1/pageviews', 'POST'))).toBe('pass');
  });

  it("leaves other origins and other methods to the network, but takes the app's shared images", () => {
    expect(route(req('/assets/x.js', 'GET', 'cors', 'https://cdn.example'))).toBe('pass');
    expect(route(req('/de/faq', 'POST', 'navigate'))).toBe('pass');
    expect(route(req(`${sharePath}?lang=de`, 'POST', 'navigate'))).toBe('share');
    expect(route(req(sharePath, 'GET', 'navigate'))).toBe('page');
  });

  it('tells pages, payloads, hashed assets and other files apart', () => {
    expect(route(req('/de/area-calculator?shape=circle&r=2', 'GET', 'navigate'))).toBe('page');
    expect(route(req('/', 'GET', 'navigate'))).toBe('page');
    expect(route(req('/de/faq/_payload.json?b1'))).toBe('payload');
    expect(route(req('/_payload.json?b1'))).toBe('payload');
    expect(route(req('/assets/entry-client-abc.js'))).toBe('asset');
    expect(route(req('/icons/icon-192.png'))).toBe('static');
    expect(route(req('/de/manifest.webmanifest'))).toBe('static');
  });
});

describe('what a language keeps', () => {
  it('is fetched with its offline page last: the marker that everything else is there', () => {
    const urls = localeUrls({ pages: ['/de'], payloads: ['/de/_payload.json'], messages: ['/assets/de-1.js'], manifest: '/de/manifest.webmanifest', offline: '/_offline/de.html', flipper: '/de/flip-image' });
    expect(urls.at(-1)).toBe('/_offline/de.html');
    expect(urls).toHaveLength(5);
  });

  it('is found from a path by its first segment', () => {
    const codes = ['en', 'de', 'jp'];
    expect(localeOfPath('/de/faq', codes, 'en')).toBe('de');
    expect(localeOfPath('/jp', codes, 'en')).toBe('jp');
    expect(localeOfPath('/faq', codes, 'en')).toBe('en');
    expect(localeOfPath('/', codes, 'en')).toBe('en');
    expect(localeOfPath('/deutsch/faq', codes, 'en')).toBe('en');
  });
});
