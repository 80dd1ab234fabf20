import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Payload } from './payload';
import { createNavigator, type NavigatorDeps } from './navigation';
import { createViewStore } from './view';

const origin = 'https://handy.example';
const payload = (path: string) => ({ route: { page: 'faq', locale: 'de' }, head: { title: path } }) as unknown as Payload;

function setup(overrides: Partial<NavigatorDeps> = {}) {
  const store = createViewStore({ path: '/', search: '' });
  const deps = {
    store,
    loadPage: vi.fn(async () => {}),
    fetchPayload: vi.fn((path: string) => Promise.resolve(payload(path))),
    ensureMessages: vi.fn(async () => {}),
    fullLoad: vi.fn(),
    reloadOnce: vi.fn(() => true),
    history: { pushState: vi.fn(), replaceState: vi.fn() },
    origin,
    afterCommit: vi.fn(),
    ...overrides,
  };
  return { deps, store, nav: createNavigator(deps) };
}

afterEach(() => vi.restoreAllMocks());

describe('navigation', () => {
  it('loads the chunk, payload and messages, then commits once', async () => {
    const { deps, store, nav } = setup();
    await nav.navigate('/de/faq?x=1');
    expect(deps.loadPage).toHaveBeenCalledWith('faq');
    expect(deps.fetchPayload).toHaveBeenCalledWith('/de/faq');
    expect(deps.ensureMessages).toHaveBeenCalledWith('de', 'faq');
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/de/faq?x=1');
    expect(store.get()).toMatchObject({ path: '/de/faq', search: '?x=1', route: { page: 'faq', locale: 'de' } });
    expect(deps.fullLoad).not.toHaveBeenCalled();
  });

  it('shows "Page not found" in place for an unknown path', async () => {
    const { deps, store, nav } = setup();
    await nav.navigate('/de/nope');
    expect(store.get()).toEqual({ path: '/de/nope', search: '', visit: 1 });
    // The same page again is a new visit: the page starts afresh.
    await nav.navigate('/de/nope');
    expect(store.get()).toEqual({ path: '/de/nope', search: '', visit: 2 });
    expect(deps.ensureMessages).toHaveBeenCalledWith('de');
    expect(deps.fetchPayload).not.toHaveBeenCalled();
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/de/nope');
  });

  it('applies route rules, keeping the query', async () => {
    const { deps, nav } = setup();
    await nav.navigate('/ja/faq/?q=1');
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/jp/faq?q=1');
  });

  it('never follows a rule to another host, as the server does not', async () => {
    const { deps, store, nav } = setup();
    nav.setRules([{ from: '/docs', to: 'https://docs.example/start' }]);
    await nav.navigate('/docs');
    expect(deps.fullLoad).not.toHaveBeenCalled();
    expect(store.get()).toEqual({ path: '/docs', search: '', visit: 1 });
  });

  it('chains rules into one navigation to the final target', async () => {
    const { deps, nav } = setup();
    nav.setRules([
      { from: '/a', to: '/b' },
      { from: '/b', to: '/jp/faq' },
    ]);
    await nav.navigate('/a#top');
    expect(deps.history.pushState).toHaveBeenCalledTimes(1);
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/jp/faq#top');
  });

  it('makes every navigation a full load once a newer build exists', async () => {
    const { deps, nav } = setup();
    nav.markOutdated();
    await nav.navigate('/faq');
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/faq`);
    expect(deps.loadPage).not.toHaveBeenCalled();
  });

  it('falls back to a full load, with a warning, when the payload fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { deps, store, nav } = setup({ fetchPayload: vi.fn(() => Promise.reject(new Error('404'))) });
    await nav.navigate('/faq');
    expect(warn).toHaveBeenCalled();
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/faq`);
    expect(store.get().path).toBe('/');
  });

  it('reloads the target (guarded) when its chunk fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { deps, nav } = setup({ loadPage: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    await nav.navigate('/faq?a=b');
    expect(deps.reloadOnce).toHaveBeenCalledWith('/faq?a=b');
    expect(deps.history.pushState).not.toHaveBeenCalled();
  });

  it('lets the latest of two overlapping navigations win', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const loadPage = vi.fn((page: string) => (page === 'faq' ? slow : Promise.resolve()));
    const { store, nav } = setup({ loadPage });
    const first = nav.navigate('/faq');
    await nav.navigate('/flip-image');
    release();
    await first;
    expect(store.get().path).toBe('/flip-image');
  });

  it('hands files and other origins to the browser', async () => {
    const { deps, nav } = setup();
    await nav.navigate('/sitemap.xml');
    await nav.navigate('https://elsewhere.example/');
    expect(vi.mocked(deps.fullLoad).mock.calls).toEqual([[`${origin}/sitemap.xml`], ['https://elsewhere.example/']]);
  });
});
