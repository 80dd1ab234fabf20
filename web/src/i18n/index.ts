// Which message files a page needs, and loading them. `translation` (i18n/locales/{code}.json)
// is on every page; a namespace is named after the folder that owns it (features/area/locales/
// is `area`, calculator/locales/ is `calculator`) and loads only on the pages that use it, so a
// calculator's words weigh nothing elsewhere; a feature loaded on demand (the account dialog)
// asks for its own with `ensureNamespaces`. Each file is its own chunk. The build refuses a
// locale that lacks a key (messages.test.ts), so a page loads its own locale only; English is
// loaded as the fallback only when a locale's chunk fails to load.
import { defaultLocale, pageFeatures, type LocaleCode, type PageName } from '../lib/site';
import { createTranslator, type I18n, type Namespace } from './translator';

export type { I18n, Namespace } from './translator';
export type Messages = typeof import('./locales/en.json');

export type Loader = (ns: Namespace, code: LocaleCode) => Promise<object>;

const chunks = import.meta.glob<object>(['./locales/*.json', '../*/locales/*.json', '../features/*/locales/*.json'], {
  import: 'default',
});

/** The glob's key of a path under src/ (Vite writes this folder's own files as ./). */
const globKey = (path: string) => (path.startsWith('i18n/') ? `./${path.slice(5)}` : `../${path}`);

/** A message file's path under src/: the namespace is the name of the folder that holds locales/. */
function chunkPath(ns: Namespace, code: LocaleCode): string {
  if (ns === 'translation') return `i18n/locales/${code}.json`;
  return chunks[`../${ns}/locales/${code}.json`] ? `${ns}/locales/${code}.json` : `features/${ns}/locales/${code}.json`;
}

/** Loads one namespace of one locale (its own chunk). */
export const loadMessages: Loader = (ns, code) => {
  const load = chunks[globKey(chunkPath(ns, code))];
  if (!load) return Promise.reject(new Error(`no ${ns} messages for locale ${code}`));
  return load();
};

/** What a page needs: `translation`, and a tool page its feature's namespace and those it uses. */
function namespacesOf(page?: PageName): Namespace[] {
  const feature = page && pageFeatures[page];
  return ['translation', ...((feature ? [...(feature.uses ?? []), feature.name] : []) as Namespace[])];
}

/** Manifest keys of the message chunks a page needs, for the prerender step's preload links. */
export function messageChunks(code: LocaleCode, page?: PageName): string[] {
  return namespacesOf(page).map((ns) => `src/${chunkPath(ns, code)}`);
}

/**
 * Makes sure `i18n` has what a page in `code` needs, then switches to `code`. A chunk that
 * fails is logged and replaced by its English fallback; the page goes on either way.
 */
export async function ensureMessages(
  i18n: I18n,
  code: LocaleCode,
  page?: PageName,
  load: Loader = loadMessages,
): Promise<void> {
  await addAll(i18n, code, namespacesOf(page), load);
  i18n.changeLanguage(code);
}

/**
 * Makes sure `i18n` has namespaces that a feature loaded on demand needs (the account dialog's)
 * in its current language, with the same fallback as a page's.
 */
export function ensureNamespaces(i18n: I18n, namespaces: readonly Namespace[], load: Loader = loadMessages): Promise<void> {
  return addAll(i18n, i18n.language, namespaces, load);
}

async function addAll(i18n: I18n, code: LocaleCode, namespaces: readonly Namespace[], load: Loader): Promise<void> {
  const add = async (ns: Namespace, c: LocaleCode) => {
    if (!i18n.hasBundle(c, ns)) i18n.addBundle(c, ns, await load(ns, c));
  };
  await Promise.all(
    namespaces.map(async (ns) => {
      try {
        await add(ns, code);
      } catch (err) {
        console.error(`Failed locale loading: ${err instanceof Error ? err.message : String(err)}`);
        if (code !== defaultLocale) await add(ns, defaultLocale).catch(() => {});
      }
    }),
  );
}

/** A translator for one locale and page, with the messages they need. */
export async function createI18n(code: LocaleCode, page?: PageName, load?: Loader): Promise<I18n> {
  const i18n = createTranslator(code);
  await ensureMessages(i18n, code, page, load);
  return i18n;
}
