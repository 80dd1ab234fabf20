import { AccountButton, useThemeRevision } from '../features/account/public';
import { HistoryButton } from '../features/history/public';
import { useTranslation } from '../i18n/react';
import { pagePath, toolPages, type LocaleCode, type PageName } from '../lib/site';
import { ThemeSwitch } from '../theme/ThemeSwitch';
import { LanguageSwitcher } from '../page/LanguageSwitcher';

interface Props {
  locale: LocaleCode;
  page?: PageName;
  search: string;
}

export function Header({ locale, page, search }: Props) {
  const { t } = useTranslation();
  // Signing in can apply the account's theme: the switch then starts afresh from the stored one.
  const themeRevision = useThemeRevision();
  return (
    <header className="site-header">
      <div className="bar">
        <a className="brand" href={pagePath('index', locale)} aria-label={t('nav.home')}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="7" />
            <path d="M16 6v20M9 10l-4 6 4 6M23 10l4 6-4 6" />
          </svg>
          <span>{t('site.name')}</span>
        </a>
        <nav className="tools-nav" aria-label={t('nav.tools')}>
          <ul>
            {toolPages.map((p) => (
              <li key={p.name}>
                <a href={pagePath(p.name, locale)} aria-current={p.name === page ? 'page' : undefined}>
                  {t(`pages.${p.name}.label`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-actions">
          <LanguageSwitcher key={page ?? ''} locale={locale} page={page} search={search} />
          <ThemeSwitch key={themeRevision} />
          <HistoryButton />
          <AccountButton />
        </div>
      </div>
    </header>
  );
}
