// The prerender step's view of the app (bundled by `vite build --ssr`; driven by
// web/scripts/prerender.mjs, which owns all file I/O).
import { renderToString } from 'react-dom/server';
import { I18nProvider } from '../i18n/react';
import { App } from './App';
import { ErrorMessage } from './ErrorMessage';
import { Layout } from './Layout';
import { renderDocument, type Assets } from './document';
import { pageText } from '../page/content';
import { createI18n, ensureNamespaces, messageChunks } from '../i18n';
import { AdminApp, adminPath } from '../features/admin/public';
import { buildManifest, manifestPath, Offline, offlinePath } from '../features/pwa/public';
import { extensions, mimeTypes } from '../features/flip/public';
import { buildPayload, type Head, type Payload } from '../router/payload';
import { loadPage, pageChunk } from './pageRegistry';
import { createViewStore } from '../router/view';
import { defaultLocale, localeOf, locales, pagePath, payloadPath, routes, routeRules, type LocaleCode, type Route, type ToolName } from '../lib/site';

export { adminPath, defaultLocale, locales, manifestPath, messageChunks, offlinePath, pageChunk, pagePath, payloadPath, routeRules, routes };

/** Prerenders one route: its document and its payload. */
export async function renderRoute(
  route: Route,
  assets: Assets,
  buildId: string,
  year: number,
): Promise<{ html: string; payload: Payload }> {
  const i18n = await createI18n(route.locale, route.page);
  await loadPage(route.page);
  const payload = buildPayload(route, i18n.t, pageText(route.page, route.locale));
  const store = createViewStore({ path: pagePath(route.page, route.locale), search: '', route, payload });
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <App store={store} year={year} />
    </I18nProvider>,
  );
  const html = renderDocument({
    head: payload.head,
    siteName: i18n.t('site.name'),
    body,
    assets,
    boot: { buildId, year, payload },
    manifest: manifestPath(route.locale),
  });
  return { html, payload };
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
  const kind = status === 404 ? 'notFound' : 'serverError';
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <Layout locale={code} search="" year={year}>
        <ErrorMessage kind={kind} locale={code} detailSlot={status === 404} />
      </Layout>
    </I18nProvider>,
  );
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
  await ensureNamespaces(i18n, ['pwa']);
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <Layout locale={code} search="" year={year}>
        <Offline locale={code} />
      </Layout>
    </I18nProvider>,
  );
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
