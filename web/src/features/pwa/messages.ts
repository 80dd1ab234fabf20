// The `pwa` message namespace: locales/{code}.json beside this file, typed from English. Only
// the prerender step loads it (the offline pages are static).
import type messages from './locales/en.json';

declare module '../../i18n/translator' {
  interface Resources {
    pwa: typeof messages;
  }
}
