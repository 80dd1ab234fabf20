// The `consent` message namespace: locales/{code}.json beside this file, typed from English.
import type messages from './locales/en.json';

declare module '../../i18n/translator' {
  interface Resources {
    consent: typeof messages;
  }
}
