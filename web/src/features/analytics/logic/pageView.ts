// The page-view tracker's decisions, apart from the browser: whether to count at all, which views
// count, and what each one says (the body of POST /api/v1/pageviews).

/** One page view, as the server takes it. */
export interface PageView {
  /** The page's path, without query or fragment. */
  p: string;
  /** The locale code of the page's route (`jp`, not `ja`). */
  l: string;
  /** The browser's language (`navigator.language`). */
  bl: string;
  /** The referring site's host name, on the first page view only, when it is another site; else "". */
  r: string;
  s: ScreenClass;
}

export type ScreenClass = 'phone' | 'tablet' | 'desktop';

/** The class of a viewport's width in CSS pixels. */
export const screenClass = (width: number): ScreenClass => (width < 600 ? 'phone' : width < 1024 ? 'tablet' : 'desktop');

/** The host name of a referrer on another site; "" for none, for this site, or for what is no URL. */
export function referrerHost(referrer: string, ownHost: string): string {
  try {
    const { hostname } = new URL(referrer);
    return hostname === ownHost ? '' : hostname;
  } catch {
    return '';
  }
}

/** What the tracker reads of the browser before counting anything. */
export interface Agent {
  userAgent: string;
  webdriver?: boolean;
  globalPrivacyControl?: boolean;
}

// Rough on purpose: the server filters bots properly; this spares it the obvious ones.
const bot = /bot|crawl|spider|headless|lighthouse/i;

/** True when nothing may be sent: an automated browser, Global Privacy Control, a bot. */
export const excluded = (agent: Agent): boolean => !!(agent.webdriver || agent.globalPrivacyControl) || bot.test(agent.userAgent);

/** A view on screen, with what the browser says about the visitor at that moment. */
export interface Seen {
  path: string;
  /** The route's locale; undefined where the path is no page ("Page not found"). */
  locale?: string;
  language: string;
  width: number;
}

/**
 * Turns the views a tab shows into page views. A view counts when its path differs from the one
 * before (a page rewriting its query string is still the same view) and names a page: a "Page
 * not found" shown in place is not counted, as the server's own 404 pages, which carry no script,
 * cannot be. The referrer goes with the first page view only: later ones come from this site.
 */
export function pageViews(referrer: string) {
  let last: string | undefined;
  return ({ path, locale, language, width }: Seen): PageView | undefined => {
    if (path === last) return undefined;
    last = path;
    if (locale === undefined) return undefined;
    const view = { p: path, l: locale, bl: language, r: referrer, s: screenClass(width) };
    referrer = '';
    return view;
  };
}
