import { useTranslation } from '../i18n/react';
import { footerPages, pagePath, type LocaleCode, type PageName } from '../lib/site';

interface Props {
  locale: LocaleCode;
  page?: PageName;
  year: number;
}

export function Footer({ locale, page, year }: Props) {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <nav aria-label={t('nav.footer')}>
        <ul>
          {footerPages.map((p) => (
            <li key={p.name}>
              <a href={pagePath(p.name, locale)} aria-current={p.name === page ? 'page' : undefined}>
                {t(`pages.${p.name}.label`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p>{t('footer.privacyNote')}</p>
      <p>{t('footer.copyright', { year })}</p>
    </footer>
  );
}
