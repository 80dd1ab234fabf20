// Messages by locale and namespace, and `t`: the few things the site needs from an i18n
// library (nested keys, {{name}} interpolation, a fallback locale, namespaces loaded on
// demand), typed against the English files so that a wrong key does not compile. i18next did
// this in ≈ 15 KB brotli of every page's 90 KB budget; this does it in well under 1 KB
// (docs/decisions.md).
import type en from './locales/en.json';
import { defaultLocale, type LocaleCode } from '../lib/site';
import { createStore } from '../lib/store';

/**
 * The messages of each namespace, typed from its English file. `translation` is every page's;
 * each module that owns a namespace adds it from its own `messages.ts` (declaration merging),
 * so this shared layer names no feature.
 */
export interface Resources {
  translation: typeof en;
}

export type Namespace = keyof Resources;

/** Every dotted path to a string in a messages object. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

export type Key<NS extends Namespace> = Leaves<Resources[NS]>;
/** A key of any namespace, written `ns:key`. */
export type PrefixedKey = { [NS in Namespace]: `${NS}:${Key<NS>}` }[Namespace];
export type Values = Readonly<Record<string, string | number>>;
export type TFunction<NS extends Namespace = 'translation'> = (key: Key<NS> | PrefixedKey, values?: Values) => string;

export interface I18n {
  readonly language: LocaleCode;
  /** `t` of the `translation` namespace. */
  readonly t: TFunction;
  /** `t` whose unprefixed keys are in `ns`. */
  fixedT<NS extends Namespace>(ns: NS): TFunction<NS>;
  hasBundle(code: LocaleCode, ns: Namespace): boolean;
  addBundle(code: LocaleCode, ns: Namespace, messages: object): void;
  changeLanguage(code: LocaleCode): void;
  /** Called after every language change; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void;
}

export function createTranslator(initial: LocaleCode): I18n {
  const language = createStore(initial);
  const bundles = new Map<string, object>(); // `${code}/${ns}`

  const lookup = (code: LocaleCode, ns: string, key: string): string | undefined => {
    let node: unknown = bundles.get(`${code}/${ns}`);
    for (const part of key.split('.')) {
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[part];
    }
    return typeof node === 'string' ? node : undefined;
  };

  const translate = (defaultNs: string, fullKey: string, values?: Values): string => {
    const colon = fullKey.indexOf(':');
    const ns = colon === -1 ? defaultNs : fullKey.slice(0, colon);
    const key = colon === -1 ? fullKey : fullKey.slice(colon + 1);
    const text = lookup(language.get(), ns, key) ?? lookup(defaultLocale, ns, key);
    if (text === undefined) return fullKey; // the build checks every key; this is the last resort
    return values ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in values ? String(values[name]) : m)) : text;
  };

  const fixedT = <NS extends Namespace>(ns: NS): TFunction<NS> => (key, values) => translate(ns, key, values);

  return {
    get language() {
      return language.get();
    },
    t: fixedT('translation'),
    fixedT,
    hasBundle: (code, ns) => bundles.has(`${code}/${ns}`),
    addBundle: (code, ns, messages) => void bundles.set(`${code}/${ns}`, messages),
    changeLanguage(code) {
      if (code !== language.get()) language.set(code);
    },
    subscribe: language.subscribe,
  };
}
