// UI messages. `translation` (locales/{code}.json) is on every page; a page namespace
// (locales/{ns}/{code}.json) only on the pages that use it, so a calculator's words weigh
// nothing elsewhere. Each file is its own chunk. The build refuses a locale that lacks a key
// (messages.test.ts), so a page loads its own locale only; English is loaded as the fallback
// only when a locale's chunk fails to load.
import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLocale, type LocaleCode, type PageName } from '../site';
import type en from '../locales/en.json';
import type calc from '../locales/calc/en.json';
import type area from '../locales/area/en.json';
import type speed from '../locales/speed/en.json';

export type Messages = typeof en;

interface Resources {
  translation: Messages;
  calc: typeof calc;
  area: typeof area;
  speed: typeof speed;
}

export type Namespace = keyof Resources;

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: Resources;
  }
}

/** The namespaces each page needs besides `translation`; one place for this fact. */
export const pageNamespaces: Partial<Record<PageName, readonly Namespace[]>> = {
  'area-calculator': ['calc', 'area'],
  'speed-calculator': ['calc', 'speed'],
};

export type Loader = (ns: Namespace, code: LocaleCode) => Promise<object>;

const chunks = import.meta.glob<object>('../locales/**/*.json', { import: 'default' });

const chunkPath = (ns: Namespace, code: LocaleCode) =>
  ns === 'translation' ? `locales/${code}.json` : `locales/${ns}/${code}.json`;

/** Loads one namespace of one locale (its own chunk). */
export const loadMessages: Loader = (ns, code) => {
  const load = chunks[`../${chunkPath(ns, code)}`];
  if (!load) return Promise.reject(new Error(`no ${ns} messages for locale ${code}`));
  return load();
};

const namespacesOf = (page?: PageName): Namespace[] => ['translation', ...((page && pageNamespaces[page]) ?? [])];

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
  const add = async (ns: Namespace, c: LocaleCode) => {
    if (!i18n.hasResourceBundle(c, ns)) i18n.addResourceBundle(c, ns, await load(ns, c));
  };
  await Promise.all(
    namespacesOf(page).map(async (ns) => {
      try {
        await add(ns, code);
      } catch (err) {
        console.error(`Failed locale loading: ${err instanceof Error ? err.message : String(err)}`);
        if (code !== defaultLocale) await add(ns, defaultLocale).catch(() => {});
      }
    }),
  );
  await i18n.changeLanguage(code);
}

/** A fresh i18next instance for one locale and page; messages are added by ensureMessages. */
export async function createI18n(code: LocaleCode, page?: PageName, load?: Loader): Promise<I18n> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: code,
    fallbackLng: defaultLocale,
    ns: ['translation'],
    defaultNS: 'translation',
    resources: {},
    interpolation: { escapeValue: false }, // React escapes
    returnEmptyString: false,
  });
  await ensureMessages(i18n, code, page, load);
  return i18n;
}
