import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PagePayload } from './payload';
import { createNavigator, type NavigatorDeps } from './navigation';
import { createViewStore } from './view';
import { routeRules } from '../lib/site';

const origin = 'https://handy.example';
const payload = (path: string) => ({ route: { page: 'faq', locale: 'de' }, head: { title: path }, main: '<h1>FAQ</h1>', islands: path.includes('flip') ? ['flip'] : [] }) as unknown as PagePayload;

function setup(overrides: Partial<NavigatorDeps> = {}) {
  const store = createViewStore({ path: '/de', search: '', route: { page: 'index', locale: 'de' } });
  const deps = {
    store,
    prepare: vi.fn(async () => {}),
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
  it('loads the payload, its islands and the messages, then commits once', async () => {
    const { deps, store, nav } = setup();
    await nav.navigate('/de/faq?x=1');
    expect(deps.fetchPayload).toHaveBeenCalledWith('/de/faq');
    expect(deps.prepare).toHaveBeenCalledWith(payload('/de/faq'));
    expect(deps.ensureMessages).toHaveBeenCalledWith('de', 'faq');
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/de/faq?x=1');
    expect(store.get()).toMatchObject({ path: '/de/faq', search: '?x=1', route: { page: 'faq', locale: 'de' } });
    expect(deps.fullLoad).not.toHaveBeenCalled();
  });

  it('counts the same page again as a new visit: the page starts afresh', async () => {
    const { store, nav } = setup();
    await nav.navigate('/de/faq');
    expect(store.get()).toMatchObject({ path: '/de/faq', visit: 1 });
    await nav.navigate('/de/faq');
    expect(store.get()).toMatchObject({ path: '/de/faq', visit: 2 });
  });

  it('loads an unknown path in full: the server answers with its 404 page', async () => {
    const { deps, store, nav } = setup();
    await nav.navigate('/de/nope');
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/de/nope`);
    expect(deps.fetchPayload).not.toHaveBeenCalled();
    expect(store.get().path).toBe('/de');
  });

  it('loads a page in another language in full: its header, footer and messages differ', async () => {
    const { deps, nav } = setup();
    await nav.navigate('/jp/faq');
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/jp/faq`);
    expect(deps.fetchPayload).not.toHaveBeenCalled();
  });

  it('applies route rules, keeping the query', async () => {
    const { deps, nav } = setup();
    nav.setRules([{ from: '/de/fragen', to: '/de/faq/' }, ...routeRules]);
    await nav.navigate('/de/fragen?q=1');
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/de/faq?q=1');
  });

  it('never follows a rule to another host, as the server does not', async () => {
    const { deps, nav } = setup();
    nav.setRules([{ from: '/docs', to: 'https://docs.example/start' }]);
    await nav.navigate('/docs');
    // Not to the rule's target: to the path itself, which the server answers.
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/docs`);
  });

  it('chains rules into one navigation to the final target', async () => {
    const { deps, nav } = setup();
    nav.setRules([
      { from: '/a', to: '/b' },
      { from: '/b', to: '/de/faq' },
    ]);
    await nav.navigate('/a#top');
    expect(deps.history.pushState).toHaveBeenCalledTimes(1);
    expect(deps.history.pushState).toHaveBeenCalledWith(null, '', '/de/faq#top');
  });

  it('makes every navigation a full load once a newer build exists', async () => {
    const { deps, nav } = setup();
    nav.markOutdated();
    await nav.navigate('/de/faq');
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/de/faq`);
    expect(deps.fetchPayload).not.toHaveBeenCalled();
  });

  it('falls back to a full load, with a warning, when the payload fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { deps, store, nav } = setup({ fetchPayload: vi.fn(() => Promise.reject(new Error('404'))) });
    await nav.navigate('/de/faq');
    expect(warn).toHaveBeenCalled();
    expect(deps.fullLoad).toHaveBeenCalledWith(`${origin}/de/faq`);
    expect(store.get().path).toBe('/de');
  });

  it('reloads the target (guarded) when its chunk fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { deps, nav } = setup({ prepare: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    await nav.navigate('/de/faq?a=b');
    expect(deps.reloadOnce).toHaveBeenCalledWith('/de/faq?a=b');
    expect(deps.history.pushState).not.toHaveBeenCalled();
  });

  it('lets the latest of two overlapping navigations win', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const prepare = vi.fn((p: PagePayload) => (p.islands.length === 0 ? slow : Promise.resolve()));
    const { store, nav } = setup({ prepare });
    const first = nav.navigate('/de/faq');
    await nav.navigate('/de/flip-image');
    release();
    await first;
    expect(store.get().path).toBe('/de/flip-image');
  });

  it('hands files and other origins to the browser', async () => {
    const { deps, nav } = setup();
    await nav.navigate('/sitemap.xml');
    await nav.navigate('https://elsewhere.example/');
    expect(vi.mocked(deps.fullLoad).mock.calls).toEqual([[`${origin}/sitemap.xml`], ['https://elsewhere.example/']]);
  });
});
