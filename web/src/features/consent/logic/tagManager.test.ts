import { describe, expect, it } from 'vitest';
import { consentCommands, containerStart, isContainerUrl, pageViewEvents } from './tagManager';

describe('consentCommands', () => {
  it('denies every Consent Mode v2 signal by default, then grants them', () => {
    const denied = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' };
    const granted = { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' };
    expect(consentCommands()).toEqual([
      ['consent', 'default', { ...denied, wait_for_update: 500 }],
      ['consent', 'update', granted],
    ]);
  });

  it('starts the container as its own snippet does', () => {
    expect(containerStart(1234)).toEqual({ 'gtm.start': 1234, event: 'gtm.js' });
  });
});

describe('isContainerUrl', () => {
  it('takes what the server writes', () => {
    expect(isContainerUrl('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD3')).toBe(true);
    expect(isContainerUrl('http://127.0.0.1:9100/gtm.js?id=GTM-TEST1234')).toBe(true);
  });

  it('refuses nothing, the placeholder the server did not replace, and anything else', () => {
    for (const url of [undefined, '', '%%TAG_MANAGER_SCRIPT%%', 'javascript:alert(1)', 'https://x.example/gtm.js?id=GTM-AB12&x=1', '//x.example/gtm.js?id=GTM-AB12']) {
      expect(isContainerUrl(url), String(url)).toBe(false);
    }
  });
});

describe('pageViewEvents', () => {
  const view = (path: string, language: string | null = 'en') => ({
    path,
    location: `https://handy.example${path}?q=1`,
    title: `Title of ${path}`,
    language: language ?? undefined,
  });

  it('sends nothing for the page the container loaded on, then one event per new path', () => {
    const next = pageViewEvents('/faq');
    expect(next(view('/faq'))).toBeUndefined();
    expect(next(view('/jp/faq', 'ja'))).toEqual({
      event: 'page_view',
      page_path: '/jp/faq',
      page_location: 'https://handy.example/jp/faq?q=1',
      page_title: 'Title of /jp/faq',
      page_language: 'ja',
    });
  });

  it('does not send the same path twice in a row, but does after another page', () => {
    const next = pageViewEvents('/');
    expect(next(view('/area-calculator'))?.page_path).toBe('/area-calculator');
    expect(next(view('/area-calculator'))).toBeUndefined(); // its query rewritten
    expect(next(view('/faq'))?.page_path).toBe('/faq');
    expect(next(view('/area-calculator'))?.page_path).toBe('/area-calculator');
  });

  it('sends nothing for "Page not found"', () => {
    const next = pageViewEvents('/');
    expect(next(view('/nope', null))).toBeUndefined();
    expect(next(view('/'))?.page_path).toBe('/');
  });
});
