// The locale and page table, shared with the Go server and the prerender step
// (internal/site/site.json is the single source of truth).
import table from '../../../internal/site/site.json';
import type en from '../i18n/locales/en.json';

/** A locale code as it appears in URLs ("jp"); JSON imports are not literal-typed. */
export type LocaleCode = string;
/** Every page has its messages under pages.{name} in en.json (a unit test checks the match). */
export type PageName = keyof (typeof en)['pages'];
/** Pages with a card on the home page: the tools. */
export type ToolName = {
  [K in PageName]: (typeof en)['pages'][K] extends { card: string } ? K : never;
}[PageName];

export interface Locale {
  code: LocaleCode;
  name: string;
  /** BCP 47 tag for lang, hreflang and sitemaps. */
  lang: string;
  /** Open Graph locale (de_DE). */
  ogLocale: string;
}

export interface Page {
  name: PageName;
  /** Path of the English page; other locales add a /{code} prefix. */
  path: string;
  nav?: string;
}

export interface RouteRule {
  from: string;
  to: string;
  status?: number;
}

export const locales: readonly Locale[] = table.locales;
export const pages = table.pages as readonly Page[];
export const defaultLocale = table.defaultLocale;
export const originPlaceholder = table.originPlaceholder;
/** Tokens the privacy policy and terms write for the operator's details; the server fills them in. */
export const operatorPlaceholders = table.operatorPlaceholders;
/** What every page's boot data says in place of the tag manager's container URL; the server fills it in. */
export const tagManagerPlaceholder: string = table.tagManagerPlaceholder;

/** Redirects, tried in order; the first removes a trailing slash. */
export const routeRules: readonly RouteRule[] = table.routeRules;
/**
 * Limits the server enforces and the forms check first (password and display-name lengths in
 * characters, the avatar's data URL in bytes and its side in px).
 */
export const limits = table.limits;
/**
 * The history's collection under each user (users/{uid}/{collection}) and how many entries the
 * server keeps there (a save past it prunes the oldest).
 */
export const history: { readonly collection: string; readonly maxEntries: number } = table.history;
/** How many rules one redirect chains at most. */
export const maxRedirectHops: number = table.maxRedirectHops;

/**
 * The feature behind each tool page: its folder (features/{name}/), its message namespace and
 * its page module share the name; `uses` are the shared namespaces it needs besides its own.
 */
export const pageFeatures: Partial<Record<PageName, { name: string; uses?: readonly string[] }>> = {
  'flip-image': { name: 'flip' },
  'area-calculator': { name: 'area', uses: ['calculator'] },
  'speed-calculator': { name: 'speed', uses: ['calculator'] },
};

export const toolPages = pages.filter((p) => p.nav === 'tool') as readonly (Page & { name: ToolName })[];
export const footerPages = pages.filter((p) => p.nav === 'footer');

export function isLocaleCode(code: string): code is LocaleCode {
  return locales.some((l) => l.code === code);
}

export function localeOf(code: LocaleCode): Locale {
  return locales.find((l) => l.code === code)!;
}

/** URL path of a page in a locale: /faq, /de/faq, /, /de. */
export function pagePath(page: PageName, code: LocaleCode): string {
  const path = pages.find((p) => p.name === page)!.path;
  if (code === defaultLocale) return path;
  return path === '/' ? `/${code}` : `/${code}${path}`;
}

export function routeName(page: PageName, code: LocaleCode): string {
  return `${page}___${code}`;
}

export interface Route {
  page: PageName;
  locale: LocaleCode;
}

const routesByPath = new Map<string, Route>(
  locales.flatMap((l) => pages.map((p) => [pagePath(p.name, l.code), { page: p.name, locale: l.code }] as const)),
);

/** Every route, in table order: locales outer, pages inner. */
export const routes: readonly Route[] = [...routesByPath.values()];

/** The route a path names, or undefined for an unknown path. */
export function resolve(pathname: string): Route | undefined {
  return routesByPath.get(pathname);
}

/** The locale a path's prefix names (/de/nope → de), else the default. */
export function localeOfPath(pathname: string): LocaleCode {
  const first = pathname.split('/')[1] ?? '';
  return first !== defaultLocale && isLocaleCode(first) ? first : defaultLocale;
}

/** Payload URL of a page path: /_payload.json for /, /de/faq/_payload.json for /de/faq. */
export function payloadPath(pathname: string): string {
  return `${pathname === '/' ? '' : pathname}/_payload.json`;
}

/**
 * Applies the first matching rule. A `from` is exact or holds one `**` that captures a
 * non-empty rest of the path (not starting with a slash or a backslash, or the rule does not
 * match), which `to` reuses.
 */
function matchRule(pathname: string, rules: readonly RouteRule[]): { to: string; status: number } | undefined {
  for (const rule of rules) {
    const star = rule.from.indexOf('**');
    if (star < 0) {
      if (pathname === rule.from) return { to: rule.to, status: rule.status ?? 307 };
      continue;
    }
    const prefix = rule.from.slice(0, star);
    const suffix = rule.from.slice(star + 2);
    if (pathname.length > prefix.length + suffix.length && pathname.startsWith(prefix) && pathname.endsWith(suffix)) {
      const rest = pathname.slice(prefix.length, pathname.length - suffix.length);
      if (rest.startsWith('/') || rest.startsWith('\\')) continue;
      return { to: rule.to.replace('**', rest), status: rule.status ?? 307 };
    }
  }
  return undefined;
}

/** A path on this host that no browser reads as another host (`//x` and `/\x` would be). */
const isLocalPath = (p: string) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\');

/**
 * Where the route rules send a path, as the server's `site.Redirect` does (the cases both
 * follow are internal/site/testdata/rules.json): rules chain, at most maxRedirectHops of them,
 * so that one answer leads straight to the final target (/ja/faq/ → /jp/faq); the status is the
 * first rule's; a path needing more hops gets the furthest target reached; a rule leading to
 * itself ends the chain; a target that is not a local path is never returned.
 */
export function redirect(pathname: string, rules: readonly RouteRule[] = routeRules): { to: string; status: number } | undefined {
  let current = pathname;
  let status = 0;
  for (let hop = 0; hop < maxRedirectHops; hop++) {
    const next = matchRule(current, rules);
    if (!next || next.to === current) break;
    status ||= next.status;
    current = next.to;
  }
  return status && isLocalPath(current) ? { to: current, status } : undefined;
}
