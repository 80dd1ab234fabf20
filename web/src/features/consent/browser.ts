// The consent banner's dealings with the browser: the stored answer, the tag manager's
// container with Consent Mode v2 and its page views, and withdrawal. The decisions are in logic/.
import type { Readable } from '../../lib/store';
import type { View } from '../../router/view';
import { languageCookie } from '../../router/cookie';
import { xsrfCookie } from '../../ui/credentials';
import { cookieNames, deletions } from './logic/cookies';
import { consentKey, currentRecord, newRecord, type Choice, type ConsentRecord } from './logic/record';
import { consentCommands, containerStart, pageViewEvents } from './logic/tagManager';

/** The answer that still holds; undefined when there is none (or storage is refused). */
export function storedRecord(now = new Date()): ConsentRecord | undefined {
  try {
    return currentRecord(localStorage.getItem(consentKey), now);
  } catch {
    return undefined;
  }
}

/** Stores an answer; where storage is refused it holds for this page only, and is asked again. */
export function storeChoice(choice: Choice, now = new Date()): ConsentRecord {
  const record = newRecord(choice, now);
  try {
    localStorage.setItem(consentKey, JSON.stringify(record));
  } catch {
    // storage refused: nothing to keep it in
  }
  return record;
}

/** Whether the browser sends Global Privacy Control. */
export const globalPrivacyControl = () => (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

let loaded = false;

/** Whether the container was loaded on this page (a withdrawal then needs a reload). */
export const containerLoaded = () => loaded;

/**
 * Loads the container after an acceptance, once per page: the dataLayer and gtag made here (no
 * inline script), Consent Mode v2's defaults (denied) and the update (granted) before the
 * container, then Google's start event and the script. Each later client-side navigation
 * pushes a page_view; the page it loads on is the container's own.
 */
export function loadContainer(url: string, views: Readable<View>) {
  if (loaded) return;
  loaded = true;
  const w = window as unknown as { dataLayer?: unknown[] };
  const dataLayer = (w.dataLayer ??= []);
  // As Google defines it: the tag manager reads gtag commands only as Arguments objects.
  const gtag = function () {
    // eslint-disable-next-line prefer-rest-params -- the Arguments object itself: an array is not a gtag command
    dataLayer.push(arguments);
  } as (...command: unknown[]) => void;
  for (const command of consentCommands()) gtag(...command);
  dataLayer.push(containerStart(Date.now()));
  const script = document.createElement('script');
  script.async = true;
  script.src = url;
  document.head.append(script);

  const next = pageViewEvents(views.get().path);
  views.subscribe(() => {
    const { path, route, payload } = views.get();
    const event = next({
      path,
      location: location.href.replace(/#.*$/, ''),
      title: payload?.head.title ?? document.title,
      language: route && payload?.head.lang,
    });
    if (event) dataLayer.push(event);
  });
}

/**
 * Withdraws consent: every cookie the page can see but the site's own (the language and the
 * XSRF cookies) is deleted, on path / for this host and its parent domains, and the page
 * reloads without the tag manager.
 */
export function withdraw() {
  for (const cookie of deletions(cookieNames(document.cookie, [languageCookie, xsrfCookie]), location.hostname)) {
    document.cookie = cookie;
  }
  location.reload();
}
