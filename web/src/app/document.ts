// The HTML document around a prerendered body: head tags, assets and hydration data.
import type { Head } from '../router/payload';
import { tagManagerPlaceholder } from '../lib/site';
import { bootDataId, type BootData } from './boot';
import { themeScript } from '../theme/theme';
import { appColors } from '../features/pwa/public';
import { signedInScript } from '../features/account/public';

export interface Assets {
  /** The entry module. */
  entry: string;
  /** Chunks the page needs before it can hydrate (its page and messages). */
  preload: string[];
  /**
   * The stylesheet's text, inlined: one render-blocking request less before the first paint.
   * The server allows exactly these bytes in its CSP, by hash.
   */
  styles: string[];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON safe inside <script type="application/json">: no `</script>`, no `<!--`. */
export const scriptJson = (data: unknown) =>
  JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

interface DocumentInput {
  head: Head;
  siteName: string;
  body: string;
  assets: Omit<Assets, 'entry'> & { entry?: string };
  boot?: BootData;
  /** Error pages are not indexed. */
  noindex?: boolean;
  /** The web app manifest of the page's language (none for the operator's dashboard). */
  manifest?: string;
}

export function renderDocument({ head, siteName, body, assets, boot, noindex, manifest }: DocumentInput): string {
  const e = escapeHtml;
  const lines = [
    '<!doctype html>',
    // A page without script (the error and offline pages) hides the controls that need it.
    `<html lang="${e(head.lang)}"${assets.entry ? '' : ' data-static'}>`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}">`,
    noindex ? '<meta name="robots" content="noindex">' : '',
    ...(noindex
      ? []
      : [
          `<link rel="canonical" href="${e(head.canonical)}">`,
          ...head.alternates.map((a) => `<link rel="alternate" hreflang="${e(a.hreflang)}" href="${e(a.href)}">`),
          '<meta property="og:type" content="website">',
          `<meta property="og:site_name" content="${e(siteName)}">`,
          `<meta property="og:title" content="${e(head.title)}">`,
          `<meta property="og:description" content="${e(head.description)}">`,
          `<meta property="og:url" content="${e(head.canonical)}">`,
          `<meta property="og:locale" content="${e(head.ogLocale)}">`,
          ...head.ogLocaleAlternates.map((l) => `<meta property="og:locale:alternate" content="${e(l)}">`),
          '<meta name="twitter:card" content="summary">',
          ...(head.structuredData ? [`<script type="application/ld+json">${scriptJson(head.structuredData)}</script>`] : []),
        ]),
    `<meta name="theme-color" content="${appColors.light.theme}" media="(prefers-color-scheme: light)">`,
    `<meta name="theme-color" content="${appColors.dark.theme}" media="(prefers-color-scheme: dark)">`,
    manifest ? `<link rel="manifest" href="${e(manifest)}">` : '',
    // Before the stylesheet and the first paint, one script the server allows by its hash: the
    // visitor's chosen theme (theme/theme.ts), and whether someone is signed in here
    // (features/account/session.ts).
    `<script>${themeScript}${signedInScript}</script>`,
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">',
    ...assets.styles.map((css) => {
      if (/<\/style/i.test(css)) throw new Error('a stylesheet must not contain </style');
      return `<style>${css}</style>`;
    }),
    // The prerendered page is whole without script: hydration must not compete with the first
    // paint for bandwidth, so its modules load at low priority.
    ...(assets.entry ? [`<script type="module" src="${e(assets.entry)}" fetchpriority="low"></script>`] : []),
    ...assets.preload.map((href) => `<link rel="modulepreload" href="${e(href)}" fetchpriority="low">`),
    '</head>',
    '<body>',
    `<div id="root">${body}</div>`,
    boot ? `<script type="application/json" id="${bootDataId}">${scriptJson({ ...boot, tagManager: tagManagerPlaceholder })}</script>` : '',
    '</body>',
    '</html>',
  ];
  return lines.filter(Boolean).join('\n') + '\n';
}
