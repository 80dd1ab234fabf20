// The language cookie follows the page in use, so that `/` leads back to this language.
import type { LocaleCode } from '../lib/site';

export const languageCookie = 'i18n_redirected';
const maxAgeSeconds = 365 * 24 * 60 * 60;

export function languageCookieValue(code: LocaleCode, secure: boolean, now = Date.now()): string {
  const expires = new Date(now + maxAgeSeconds * 1000).toUTCString();
  return `${languageCookie}=${code}; Path=/; Max-Age=${maxAgeSeconds}; Expires=${expires}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function rememberLanguage(code: LocaleCode) {
  const current = document.cookie.split('; ').find((c) => c.startsWith(`${languageCookie}=`));
  if (current === `${languageCookie}=${code}`) return;
  document.cookie = languageCookieValue(code, location.protocol === 'https:');
}
