// Wires the browser to the runtime: link clicks and history, preloading, the build check,
// route rules from the build manifest, the language cookie, and a fragment that names a closed
// <details> (a question of the FAQ) opening it. The app hands it what it needs (the boot data,
// what prepares a page's islands): the router imports nothing of app/.
import type { I18n } from '../i18n/translator';
import { ensureMessages } from '../i18n';
import { resolve, type RouteRule } from '../lib/site';
import { startBuildCheck } from './buildCheck';
import { preloadAllowed } from './connection';
import { rememberLanguage } from './cookie';
import { applyHead } from './head';
import { createNavigator, isAppPath, type Navigator } from './navigation';
import { createPayloadCache } from './payloads';
import { createPreloader } from './preload';
import { reloadOnce } from './reloadGuard';
import { keepScroll, layOutAll } from './scroll';
import type { PagePayload } from './payload';
import type { ViewStore } from './view';

/** What the runtime reads of the page's boot data (app/boot.ts, BootData). */
export interface Boot {
  buildId: string;
}

export interface RuntimeInput {
  boot: Boot;
  store: ViewStore;
  i18n: I18n;
  /** Loads what a page's islands need before a navigation shows it. */
  prepare: (payload: PagePayload) => Promise<unknown>;
}

export function startRuntime({ boot, store, i18n, prepare }: RuntimeInput) {
  const fetchPayload = createPayloadCache(boot.buildId);
  const scroll = keepScroll();
  const navigator = createNavigator({
    // The app shows the new view as the store changes, before afterCommit looks for the
    // fragment's element.
    store,
    fetchPayload,
    prepare,
    ensureMessages: (code, page) => ensureMessages(i18n, code, page),
    fullLoad: (href) => location.assign(href),
    reloadOnce,
    history: {
      pushState(...args) {
        scroll.leaving();
        history.pushState(...args);
      },
      replaceState: (...args) => history.replaceState(...args),
    },
    origin: location.origin,
    afterCommit(view, url, mode) {
      if (view.payload) applyHead(view.payload.head);
      if (mode === 'none') return scroll.restore(() => toPlace(url.hash)); // back or forward
      toPlace(url.hash);
      document.getElementById('main')?.focus({ preventScroll: true });
    },
  });

  // The prerendered page knows no query; a link with one re-renders the page with it. Without
  // one, nothing changed, and setting the view anyway would re-render every component at once.
  if (location.search !== store.get().search) store.set({ ...store.get(), search: location.search });
  rememberLanguage(store.get().route.locale);
  interceptLinks(navigator, scroll.leaving);
  window.addEventListener('popstate', () => {
    scroll.arrived();
    // Back and forward between an in-page link's entries change only the fragment: the page on
    // screen stays as it is, with its state, and only the position changes.
    const { path, search } = store.get();
    if (location.pathname === path && location.search === search) return scroll.restore(() => toPlace(location.hash));
    void navigator.navigate(location.href, 'none');
  });
  scroll.restoreOnLoad();
  openNamed(location.hash);
  window.addEventListener('hashchange', () => openNamed(location.hash));
  if (preloadAllowed()) watchLinks(prepare, fetchPayload, store);
  startBuildCheck({ buildId: boot.buildId, onOutdated: () => navigator.markOutdated() });
  void loadRouteRules(boot.buildId, navigator);
  window.addEventListener('unhandledrejection', (e) => console.error('Unhandled error:', e.reason));
  document.documentElement.dataset.hydrated = 'true'; // for tests: the page is live
}

/** The element a URL fragment names, if any; a malformed fragment names none. */
function elementOfHash(hash: string): HTMLElement | null {
  if (!hash) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
}

/** Opens the <details> a fragment names (a question of the FAQ), closed as prerendered. */
function openNamed(hash: string) {
  const target = elementOfHash(hash);
  if (target instanceof HTMLDetailsElement) target.open = true;
}

/** Scrolls to the section a fragment names, or to the top without one. */
function toPlace(hash: string) {
  const target = elementOfHash(hash);
  if (!target) return window.scrollTo(0, 0);
  openNamed(hash);
  layOutAll();
  target.scrollIntoView();
}

function appUrl(a: HTMLAnchorElement): URL | undefined {
  if (a.target || a.hasAttribute('download')) return undefined;
  const url = new URL(a.href, location.href);
  return isAppPath(url, location.origin) ? url : undefined;
}

function interceptLinks(navigator: Navigator, leaving: () => void) {
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    const url = a && appUrl(a);
    if (!url) return;
    const samePage = url.pathname === location.pathname && url.search === location.search;
    if (samePage && url.hash) {
      // An in-page anchor: the browser makes the new entry and scrolls, right after this event,
      // with it all laid out.
      leaving();
      layOutAll();
      return;
    }
    e.preventDefault();
    a.closest('details')?.removeAttribute('open');
    void navigator.navigate(url.href);
  });
}

/** Preloads the chunk and payload of links that come into view or get hovered or focused. */
function watchLinks(prepare: RuntimeInput['prepare'], fetchPayload: (path: string) => Promise<PagePayload>, store: ViewStore) {
  const preloader = createPreloader(4);
  const preload = (a: HTMLAnchorElement) => {
    const url = appUrl(a);
    const route = url && resolve(url.pathname);
    if (!url || !route || url.pathname === location.pathname) return;
    // Another language is a full load (navigation.ts): nothing to preload for it.
    if (route.locale !== store.get().route.locale) return;
    preloader.preload(url.pathname, () => fetchPayload(url.pathname).then(prepare));
  };
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) {
        preload(entry.target as HTMLAnchorElement);
        observer.unobserve(entry.target);
      }
    }
  });
  const observeAll = () => document.querySelectorAll('main a[href], header nav a[href]').forEach((a) => observer.observe(a));
  const onIntent = (e: Event) => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (a) preload(a);
  };
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  // After the page settles, so that preloads never compete with the page's own loading.
  const idle = (cb: () => void) => ('requestIdleCallback' in window ? window.requestIdleCallback(cb) : setTimeout(cb, 1000));
  idle(observeAll);
  store.subscribe(() => idle(observeAll)); // a new view brings new links
}

async function loadRouteRules(buildId: string, navigator: Navigator) {
  try {
    const res = await fetch(`/builds/meta/${buildId}.json`);
    if (!res.ok) throw new Error(`status ${res.status}`);
    const meta = (await res.json()) as { routeRules?: RouteRule[] };
    if (Array.isArray(meta.routeRules)) navigator.setRules(meta.routeRules);
  } catch (err) {
    console.warn('Failed to load the route rules of this build:', err);
  }
}
