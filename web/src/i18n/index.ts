// UI messages: en.json is the source and the fallback; each locale is its own chunk,
// loaded on demand together with the fallback's.
import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLocale, type LocaleCode } from '../site';
import type en from '../locales/en.json';

export type Messages = typeof en;

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages };
  }
}

const chunks = import.meta.glob<Messages>('../locales/*.json', { import: 'default' });

/** Loads one locale's messages (its own chunk). */
export function loadMessages(code: LocaleCode): Promise<Messages> {
  const load = chunks[`../locales/${code}.json`];
  if (!load) return Promise.reject(new Error(`no messages for locale ${code}`));
  return load();
}

/** A locale and its fallback: the messages a page in that locale needs. */
const withFallback = (code: LocaleCode) => (code === defaultLocale ? [code] : [code, defaultLocale]);

/** Manifest keys of a locale's chunks, for the prerender step's modulepreload links. */
export function messageChunks(code: LocaleCode): string[] {
  return withFallback(code).map((c) => `src/locales/${c}.json`);
}

/**
 * Makes sure `code` and the fallback are in `i18n`. A failure is logged and the page goes
 * on with what it has (the fallback, at worst).
 */
export async function ensureLocale(
  i18n: I18n,
  code: LocaleCode,
  load: (code: LocaleCode) => Promise<Messages> = loadMessages,
): Promise<void> {
  await Promise.all(
    withFallback(code)
      .filter((c) => !i18n.hasResourceBundle(c, 'translation'))
      .map(async (c) => {
        try {
          i18n.addResourceBundle(c, 'translation', await load(c));
        } catch (err) {
          console.error(`Failed locale loading: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
  );
  await i18n.changeLanguage(code);
}

/** A fresh i18next instance for one locale; messages are added by ensureLocale. */
export async function createI18n(
  code: LocaleCode,
  load?: (code: LocaleCode) => Promise<Messages>,
): Promise<I18n> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: code,
    fallbackLng: defaultLocale,
    resources: {},
    interpolation: { escapeValue: false }, // React escapes
    returnEmptyString: false,
  });
  await ensureLocale(i18n, code, load);
  return i18n;
}
