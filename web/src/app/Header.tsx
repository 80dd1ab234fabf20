import { useTranslation } from '../i18n/react';
import { pagePath, toolPages, type LocaleCode, type PageName } from '../lib/site';
import { Island } from '../page/Island';
import { LanguageSwitcher } from '../page/LanguageSwitcher';

interface Props {
  locale: LocaleCode;
  page?: PageName;
}

export function Header({ locale, page }: Props) {
  const { t } = useTranslation();
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
          <LanguageSwitcher locale={locale} page={page} />
          {/* At idle: each shows what it knows (the stored theme, new saves, who is signed in)
              soon after the page settles, and a click before that still works. */}
          <Island name="theme" when="idle" />
          <Island name="history" when="idle" />
          <Island name="account" when="idle" />
        </div>
      </div>
    </header>
  );
}
