// What a page is made of beyond the bundle: its head data and (for long-form pages) its text,
// which the prerender step renders into the page; and what a client-side navigation fetches
// instead of the whole document ({page path}/_payload.json, PagePayload): the head data, and the
// page's <main> as prerendered HTML with the islands in it.
import type { TFunction } from '../i18n/translator';
import { locales, localeOf, originPlaceholder, pagePath, defaultLocale, type Route } from '../lib/site';

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
  /** schema.org data about the page, written as JSON-LD (the FAQ's FAQPage). */
  structuredData?: object;
}

/** One question of the FAQ: plain text, and its answer as HTML. */
export interface FaqItem {
  id: string;
  question: string;
  answer: string;
}

/** What a page carries of its locale's long-form text (page/content.ts renders it). */
export interface PageText {
  /** Prose, as HTML. */
  content?: string;
  /** The prose's sections (its level-2 headings), for the long legal pages. */
  toc?: { id: string; text: string }[];
  /** The FAQ page: every question and answer. */
  faq?: FaqItem[];
  /** The home page: the first questions, without their answers. */
  faqTeaser?: Omit<FaqItem, 'answer'>[];
}

/** A page's route, head data and long-form text: what the prerender step renders it from. */
export interface Payload extends PageText {
  route: Route;
  head: Head;
}

/** What a client-side navigation to a page fetches: its head data, and its <main> as the
 * prerendered HTML (its islands' placeholders filled, hydrated once it is in the document). */
export interface PagePayload {
  route: Route;
  head: Head;
  /** The inside of the page's <main>. */
  main: string;
  /** The names of the islands in main, so that a preload can fetch their chunks too. */
  islands: string[];
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

export function buildPayload(route: Route, t: TFunction, text: PageText = {}): Payload {
  const head = buildHead(route, t);
  if (text.faq) head.structuredData = faqPage(text.faq);
  return { route, head, ...text };
}

/** The FAQ as schema.org FAQPage: the same questions and answers as the page shows. */
export function faqPage(items: readonly FaqItem[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}
