import { useTranslation } from '../i18n/react';
import { locales, localeOf, pagePath, type LocaleCode, type PageName } from '../lib/site';

interface Props {
  locale: LocaleCode;
  /** The page to offer in each language; the home page when there is none (error pages). */
  page?: PageName;
  search?: string;
  /** Where each language leads instead, for a page outside the site's table (the dashboard). */
  hrefOf?: (code: LocaleCode) => string;
}

/** Names each language in its own language and leads to the same page in it. */
export function LanguageSwitcher({ locale, page = 'index', search = '', hrefOf = (code) => pagePath(page, code) + search }: Props) {
  const { t } = useTranslation();
  const current = localeOf(locale);
  return (
    <details className="lang">
      <summary>
        <svg className="lang-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
        </svg>
        <span className="visually-hidden">{t('nav.language')}: </span>
        <span className="lang-name" lang={current.lang}>
          {current.name}
        </span>
      </summary>
      <ul className="lang-list" aria-label={t('nav.language')}>
        {locales.map((l) => (
          <li key={l.code}>
            <a
              href={hrefOf(l.code)}
              hrefLang={l.lang}
              lang={l.lang}
              aria-current={l.code === locale ? 'true' : undefined}
            >
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
