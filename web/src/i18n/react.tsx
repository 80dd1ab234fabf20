// The translator in React: a provider at the root and useTranslation in components, with the
// shape of react-i18next's so that components read the same.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useStore } from '../lib/store';
import type { I18n, Namespace, TFunction } from './translator';

const Context = createContext<{ i18n: I18n; language: string } | null>(null);

/** Makes `i18n` available below; everything below re-renders when its language changes. */
export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const language = useStore({ get: () => i18n.language, subscribe: i18n.subscribe });
  const value = useMemo(() => ({ i18n, language }), [i18n, language]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/**
 * `t` for a namespace (`translation` by default); with a list, the first is the default and
 * the others are reached as `ns:key`.
 */
export function useTranslation<NS extends Namespace = 'translation'>(
  ns?: NS | readonly [NS, ...Namespace[]],
): { t: TFunction<NS>; i18n: I18n } {
  const ctx = useContext(Context);
  if (!ctx) throw new Error('useTranslation outside I18nProvider');
  const main = (Array.isArray(ns) ? ns[0] : (ns ?? 'translation')) as NS;
  const { i18n, language } = ctx;
  const t = useMemo(() => i18n.fixedT(main), [i18n, language, main]); // eslint-disable-line react-hooks/exhaustive-deps -- language: a new t per language
  return { t, i18n };
}
