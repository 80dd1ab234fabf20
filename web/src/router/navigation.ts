// Client-side navigation between prerendered pages of one language: route rules, the new-build
// check, the page's payload and its islands' chunks, then one commit of the view. Anything that
// cannot be done in place becomes a full page load, so the visitor always ends up on the page
// they asked for: an unknown path (the server's 404 page), another language (its header, footer
// and messages are another page's), a newer build.
import { redirect, resolve, routeRules, type LocaleCode, type PageName, type RouteRule } from '../lib/site';
import type { PagePayload } from './payload';
import type { View, ViewStore } from './view';

export type HistoryMode = 'push' | 'replace' | 'none';

export interface NavigatorDeps {
  store: ViewStore;
  fetchPayload: (path: string) => Promise<PagePayload>;
  /** Loads what the page's islands need (their chunks) before it is shown. */
  prepare: (payload: PagePayload) => Promise<unknown>;
  /** The messages of a locale (and of a page, when there is one). */
  ensureMessages: (code: LocaleCode, page?: PageName) => Promise<void>;
  /** Full page navigation (location.assign). */
  fullLoad: (href: string) => void;
  /** Full reload of a path, guarded against loops; false when refused. */
  reloadOnce: (path: string) => boolean;
  history: Pick<History, 'pushState' | 'replaceState'>;
  origin: string;
  /** Runs after the view changed: head, cookie, scroll, focus. */
  afterCommit?: (view: View, url: URL, mode: HistoryMode) => void;
}

/** True when a URL is one of ours to handle in place: same origin, no file extension. */
export function isAppPath(url: URL, origin: string): boolean {
  return url.origin === origin && !/\.[a-z0-9]+$/i.test(url.pathname);
}

export function createNavigator(deps: NavigatorDeps) {
  let rules: readonly RouteRule[] = routeRules;
  let outdated = false;
  let latest = 0;
  let visits = 0;

  function commit(view: View, url: URL, mode: HistoryMode) {
    const href = url.pathname + url.search + url.hash;
    if (mode === 'push') deps.history.pushState(null, '', href);
    if (mode === 'replace') deps.history.replaceState(null, '', href);
    deps.store.set({ ...view, visit: ++visits });
    deps.afterCommit?.(view, url, mode);
  }

  async function navigate(href: string, mode: HistoryMode = 'push'): Promise<void> {
    let url = new URL(href, deps.origin);
    if (!isAppPath(url, deps.origin)) return deps.fullLoad(url.href);

    // The rules' final target, as the server would answer it, keeping the query and the hash.
    const redirected = redirect(url.pathname, rules);
    if (redirected) {
      url = new URL(redirected.to + url.search + url.hash, deps.origin);
      if (!isAppPath(url, deps.origin)) return deps.fullLoad(url.href);
    }
    if (outdated) return deps.fullLoad(url.href);

    const seq = ++latest;
    const route = resolve(url.pathname);
    if (!route || route.locale !== deps.store.get().route.locale) return deps.fullLoad(url.href);

    const messages = deps.ensureMessages(route.locale, route.page);
    let data: PagePayload;
    try {
      data = await deps.fetchPayload(url.pathname);
    } catch (err) {
      console.warn(`Failed to fetch the payload of ${url.pathname}, loading the page in full:`, err);
      if (seq === latest) deps.fullLoad(url.href);
      return;
    }
    try {
      await deps.prepare(data);
    } catch (err) {
      console.error(`Failed to load the page ${url.pathname}:`, err);
      if (seq === latest) deps.reloadOnce(url.pathname + url.search);
      return;
    }
    await messages;
    if (seq !== latest) return; // a newer navigation won
    commit({ path: url.pathname, search: url.search, route, payload: data }, url, mode);
  }

  return {
    navigate,
    /** Route rules from the build manifest replace the built-in copy. */
    setRules(next: readonly RouteRule[]) {
      rules = next;
    },
    /** A newer build exists: every later navigation is a full load. */
    markOutdated() {
      outdated = true;
    },
    get outdated() {
      return outdated;
    },
  };
}

export type Navigator = ReturnType<typeof createNavigator>;
