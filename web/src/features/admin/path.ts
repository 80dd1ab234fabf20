// The dashboard's address in each language: /admin in English, /{code}/admin in the others,
// as the site's pages are. The server answers them only when an admin token is configured.
import { defaultLocale, isLocaleCode, type LocaleCode } from '../../lib/site';

export const adminPage = 'admin';

export const adminPath = (code: LocaleCode) => (code === defaultLocale ? `/${adminPage}` : `/${code}/${adminPage}`);

/** The language of a dashboard address (the default for anything else). */
export function adminLocale(pathname: string): LocaleCode {
  const code = pathname.split('/')[1];
  return code !== adminPage && isLocaleCode(code) ? code : defaultLocale;
}
