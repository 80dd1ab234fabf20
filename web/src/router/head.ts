// Keeps <head> in step with the page after a client-side navigation. The prerendered
// document has every element already; this only updates them.
import type { Head } from './payload';

function setAttr(selector: string, attr: string, value: string) {
  document.head.querySelector(selector)?.setAttribute(attr, value);
}

export function applyHead(head: Head) {
  document.title = head.title;
  document.documentElement.lang = head.lang;
  setAttr('meta[name="description"]', 'content', head.description);
  setAttr('link[rel="canonical"]', 'href', head.canonical);
  setAttr('meta[property="og:title"]', 'content', head.title);
  setAttr('meta[property="og:description"]', 'content', head.description);
  setAttr('meta[property="og:url"]', 'content', head.canonical);
  setAttr('meta[property="og:locale"]', 'content', head.ogLocale);
  for (const alt of head.alternates) {
    setAttr(`link[rel="alternate"][hreflang="${alt.hreflang}"]`, 'href', alt.href);
  }
  const ogAlternates = document.head.querySelectorAll('meta[property="og:locale:alternate"]');
  head.ogLocaleAlternates.forEach((value, i) => ogAlternates[i]?.setAttribute('content', value));
}
