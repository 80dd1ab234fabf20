import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/react';
import type { LocaleCode, PageName } from '../lib/site';
import { Footer } from './Footer';
import { Header } from './Header';

interface Props {
  locale: LocaleCode;
  page?: PageName;
  year: number;
  children: ReactNode;
}

export function Layout({ locale, page, year, children }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <Header locale={locale} page={page} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer locale={locale} page={page} year={year} />
    </>
  );
}
