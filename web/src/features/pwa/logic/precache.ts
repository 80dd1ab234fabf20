// What the service worker keeps for offline use, as the prerender step describes it in the
// worker's script (one description per build, so that a new build is a new worker).

/** The build's precache description, written into sw.js by web/scripts/prerender.mjs. */
export interface Precache {
  /** The build id: the name of the build's cache. */
  build: string;
  /** Every language's needs: the code (every tool's, the flipper's worker included) and the icons. */
  shell: string[];
  /** Per locale code: its pages, their payloads, its message chunks, its manifest, its offline page. */
  locales: Record<string, LocalePrecache>;
  /** The locale of a path without a locale prefix. */
  defaultLocale: string;
}

export interface LocalePrecache {
  pages: string[];
  payloads: string[];
  messages: string[];
  manifest: string;
  offline: string;
  /** The flipper's page, where shared images go. */
  flipper: string;
}

export const cachePrefix = 'handy-';

/** Where a language's offline page is served (never linked: the worker shows it in place of a page). */
export const offlinePath = (code: string) => `/_offline/${code}.html`;

/** The cache of a build. */
export const cacheName = (build: string) => cachePrefix + build;

/** A locale's URLs, in the order they are fetched: the offline page last, as the marker that all are cached. */
export function localeUrls(p: LocalePrecache): string[] {
  return [...p.messages, ...p.payloads, ...p.pages, p.manifest, p.offline];
}

/** The locale a path belongs to ("/de/faq" → "de"), by its first segment; else the default. */
export function localeOfPath(path: string, codes: readonly string[], fallback: string): string {
  const first = path.split('/')[1] ?? '';
  return codes.includes(first) ? first : fallback;
}
