// The prerender step's view of the app (bundled by `vite build --ssr`; driven by
// web/scripts/prerender.mjs, which owns all file I/O).
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nProvider } from '../i18n/react';
import type { I18n } from '../i18n/translator';
import { App } from './App';
import { ErrorMessage } from './ErrorMessage';
import { Layout } from './Layout';
import { renderDocument, type Assets } from './document';
import { pageText } from '../page/content';
import { createI18n, ensureNamespaces, messageChunks } from '../i18n';
import { AdminApp, adminPath } from '../features/admin/public';
import { buildManifest, manifestPath, Offline, offlinePath } from '../features/pwa/public';
import { extensions, mimeTypes } from '../features/flip/public';
import { buildPayload, type Head, type PagePayload } from '../router/payload';
import { islandChunk, islandNames, loadIsland } from './islandModules';
import { loadPage } from './pageRegistry';
import type { IslandName, When } from '../page/Island';
import { renderWithIslands } from './render';
import { defaultLocale, localeOf, locales, pagePath, payloadPath, routes, routeRules, type LocaleCode, type Route, type ToolName } from '../lib/site';

export { adminPath, defaultLocale, islandChunk, locales, manifestPath, messageChunks, offlinePath, pagePath, payloadPath, routeRules, routes };

/** Every island's module, loaded once before the first render. */
const islandsLoaded = Promise.all(islandNames.map(loadIsland));

/** A page of the shell (an error or offline page) in a locale: the layout around body. Its
 * islands are rendered, for the layout to be whole, but these pages load no script. */
function renderShell(code: LocaleCode, i18n: I18n, body: ReactNode, year: number): string {
  const view = { path: pagePath('index', code), search: '', route: { page: 'index', locale: code } } as const;
  return renderWithIslands(
    <Layout locale={code} year={year}>
      {body}
    </Layout>,
    i18n,
    view,
  ).html;
}

const mainOpen = '<main id="main" tabindex="-1">';

/** The inside of a rendered page's <main> (there is one, and a <main> holds no other). */
function mainOf(body: string): string {
  const from = body.indexOf(mainOpen);
  const to = body.lastIndexOf('</main>');
  if (from < 0 || to < from) throw new Error('a page without its <main id="main">');
  return body.slice(from + mainOpen.length, to);
}

/** Prerenders one route: its document and the payload a client-side navigation fetches. */
export async function renderRoute(
  route: Route,
  /** The page's assets, given its islands (it preloads the chunks of those due at load). */
  assetsOf: (islands: { name: IslandName; when: When }[]) => Assets,
  buildId: string,
  year: number,
): Promise<{ html: string; payload: PagePayload }> {
  const i18n = await createI18n(route.locale, route.page);
  await Promise.all([loadPage(route.page), islandsLoaded]);
  const page = buildPayload(route, i18n.t, pageText(route.page, route.locale));
  const path = pagePath(route.page, route.locale);
  const { html: body, islands } = renderWithIslands(<App payload={page} year={year} />, i18n, { path, search: '', route });
  const html = renderDocument({
    head: page.head,
    siteName: i18n.t('site.name'),
    body,
    assets: assetsOf(islands.map(({ name, when }) => ({ name, when }))),
    boot: { buildId, year, route },
    manifest: manifestPath(route.locale),
  });
  const main = mainOf(body);
  // The header's islands stay as they are across a navigation; the payload names main's only.
  const inMain = islands.map((i) => i.name).filter((name) => main.includes(`data-island="${name}"`));
  return { html, payload: { route, head: page.head, main, islands: inMain } };
}

/** The head of a page no search engine lists (error, offline and dashboard pages). */
function unindexedHead(code: LocaleCode, title: string, description: string): Head {
  const { lang, ogLocale } = localeOf(code);
  return { title, description, lang, canonical: '', alternates: [], ogLocale, ogLocaleAlternates: [] };
}

export const detailMarker = '<!--handy:detail-->';

/** Prerenders the static (script-free) 404 or 500 page of a locale. */
export async function renderError(
  code: LocaleCode,
  status: 404 | 500,
  styles: string[],
  year: number,
): Promise<string> {
  const i18n = await createI18n(code);
  await islandsLoaded;
  const kind = status === 404 ? 'notFound' : 'serverError';
  const body = renderShell(code, i18n, <ErrorMessage kind={kind} locale={code} detailSlot={status === 404} />, year);
  const slot = '<div class="error-detail-slot"></div>';
  if (status === 404 && !body.includes(slot)) throw new Error('404 page lacks its detail slot');
  const title = `${i18n.t(`errors.${kind}.title`)} | ${i18n.t('site.name')}`;
  return renderDocument({
    head: unindexedHead(code, title, i18n.t(`errors.${kind}.body`)),
    siteName: i18n.t('site.name'),
    body: body.replace(slot, detailMarker),
    assets: { styles, preload: [] },
    noindex: true,
    manifest: manifestPath(code),
  });
}

/** Prerenders the static (script-free) offline page of a locale, which the service worker shows. */
export async function renderOffline(code: LocaleCode, styles: string[], year: number): Promise<string> {
  const i18n = await createI18n(code);
  await Promise.all([ensureNamespaces(i18n, ['pwa']), islandsLoaded]);
  const body = renderShell(code, i18n, <Offline locale={code} />, year);
  return renderDocument({
    head: unindexedHead(code, `${i18n.t('pwa:offline.title')} | ${i18n.t('site.name')}`, i18n.t('pwa:offline.body')),
    siteName: i18n.t('site.name'),
    body,
    assets: { styles, preload: [] },
    noindex: true,
    manifest: manifestPath(code),
  });
}

/** The image types the flipper opens, with their file extensions (a JPEG has two). */
const imageTypes = Object.fromEntries(
  Object.entries(mimeTypes).map(([format, mime]) => [mime, format === 'jpeg' ? ['.jpg', '.jpeg'] : [`.${extensions[format as keyof typeof extensions]}`]]),
);

/** The web app manifest of a locale, as JSON. */
export async function renderManifest(code: LocaleCode): Promise<string> {
  const i18n = await createI18n(code);
  const text = {
    name: i18n.t('site.name'),
    description: i18n.t('pages.index.description'),
    tool: (name: ToolName) => i18n.t(`pages.${name}.label`),
  };
  return JSON.stringify(buildManifest(code, localeOf(code).lang, text, imageTypes));
}

/**
 * Prerenders the operator's dashboard in a locale, before any token: the sign-in form. It holds
 * no data and is not indexed; the server serves it only when an admin token is configured.
 */
export async function renderAdmin(code: LocaleCode, assets: Assets): Promise<string> {
  const i18n = await createI18n(code);
  await ensureNamespaces(i18n, ['admin']);
  const t = i18n.fixedT('admin');
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <AdminApp locale={code} />
    </I18nProvider>,
  );
  return renderDocument({
    head: unindexedHead(code, `${t('title')} | ${i18n.t('site.name')}`, t('description')),
    siteName: i18n.t('site.name'),
    body,
    assets,
    noindex: true,
  });
}
