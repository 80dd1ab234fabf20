// What the page tells the tag manager, apart from the browser: Consent Mode v2's default and
// update, the container's start event, and a page view for each client-side navigation.

/** Consent Mode v2's signals: every one is denied by default and granted by an acceptance. */
const signals = ['ad_storage', 'ad_user_data', 'ad_personalization', 'analytics_storage'] as const;
type Signals = Record<(typeof signals)[number], 'denied' | 'granted'>;

const all = (value: 'denied' | 'granted') => Object.fromEntries(signals.map((s) => [s, value])) as Signals;

/**
 * The gtag commands before the container loads, in order: the defaults (denied; tags wait up
 * to 500 ms for an update), then the visitor's acceptance.
 */
export const consentCommands = (): [string, string, object][] => [
  ['consent', 'default', { ...all('denied'), wait_for_update: 500 }],
  ['consent', 'update', all('granted')],
];

/** The event that starts the container, as Google's own snippet pushes it. */
export const containerStart = (now: number) => ({ 'gtm.start': now, event: 'gtm.js' });

/** A container URL as the server writes it: http(s), a host, /gtm.js?id=GTM-…. */
export const isContainerUrl = (url: string | undefined): url is string =>
  !!url && /^https?:\/\/[a-z0-9.-]+(:\d+)?\/gtm\.js\?id=GTM-[A-Z0-9]{4,12}$/.test(url);

export interface PageViewEvent {
  event: 'page_view';
  page_path: string;
  page_location: string;
  page_title: string;
  page_language: string;
}

/** A view on screen after a client-side navigation. */
export interface ShownView {
  path: string;
  /** The address, query included, fragment not. */
  location: string;
  title: string;
  /** The page's language tag (`ja`); undefined where the path is no page ("Page not found"). */
  language?: string;
}

/**
 * Turns the views a tab shows into page_view events. The page the container loads on is its
 * own page view, so `first` is not sent again; a view counts when its path differs from the one
 * before (a calculator rewriting its query is the same view) and names a page.
 */
export function pageViewEvents(first: string) {
  let last = first;
  return ({ path, location, title, language }: ShownView): PageViewEvent | undefined => {
    if (path === last) return undefined;
    last = path;
    if (language === undefined) return undefined;
    return { event: 'page_view', page_path: path, page_location: location, page_title: title, page_language: language };
  };
}
