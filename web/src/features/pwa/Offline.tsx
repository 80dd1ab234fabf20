import { useTranslation } from '../../i18n/react';
import { pagePath, toolPages, type LocaleCode } from '../../lib/site';
import './messages';

/**
 * The body of a language's offline page, which the service worker shows for a page it has not
 * kept: static (no script), so "Try again" is a link to the address in the bar, and the links
 * are to what the worker keeps of the language.
 */
export function Offline({ locale }: { locale: LocaleCode }) {
  const { t } = useTranslation();
  return (
    <section className="error-page">
      <h1>{t('pwa:offline.title')}</h1>
      <p>{t('pwa:offline.body')}</p>
      <p>
        <a className="button" href="">
          {t('pwa:offline.retry')}
        </a>
      </p>
      <h2>{t('pwa:offline.available')}</h2>
      <ul>
        {toolPages.map((p) => (
          <li key={p.name}>
            <a href={pagePath(p.name, locale)}>{t(`pages.${p.name}.label`)}</a>
          </li>
        ))}
        <li>
          <a href={pagePath('index', locale)}>{t('pages.index.label')}</a>
        </li>
      </ul>
    </section>
  );
}
