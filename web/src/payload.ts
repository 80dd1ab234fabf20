// What a page needs beyond the bundle: its head data and (for long-form pages) its content.
// The prerender step writes it into the page and into {page path}/_payload.json.
import type { TFunction } from './i18n/translator';
import { locales, localeOf, originPlaceholder, pagePath, defaultLocale, type Route } from './site';

export interface Alternate {
  hreflang: string;
  href: string;
}

export interface Head {
  title: string;
  description: string;
  lang: string;
  canonical: string;
  alternates: Alternate[];
  ogLocale: string;
  ogLocaleAlternates: string[];
}

export interface Payload {
  route: Route;
  head: Head;
  /** The page's long-form text as HTML (see content.ts), for pages that have one. */
  content?: string;
}

/** Head data of a route; absolute URLs use the placeholder origin the server replaces. */
export function buildHead(route: Route, t: TFunction): Head {
  const url = (code: typeof route.locale) => originPlaceholder + pagePath(route.page, code);
  const locale = localeOf(route.locale);
  return {
    title: t(`pages.${route.page}.title`),
    description: t(`pages.${route.page}.description`),
    lang: locale.lang,
    canonical: url(route.locale),
    alternates: [
      ...locales.map((l) => ({ hreflang: l.lang, href: url(l.code) })),
      { hreflang: 'x-default', href: url(defaultLocale) },
    ],
    ogLocale: locale.ogLocale,
    ogLocaleAlternates: locales.filter((l) => l.code !== route.locale).map((l) => l.ogLocale),
  };
}

export function buildPayload(route: Route, t: TFunction, content?: string): Payload {
  return content === undefined ? { route, head: buildHead(route, t) } : { route, head: buildHead(route, t), content };
}
