import { useTranslation } from '../i18n/react';
import { pagePath, type LocaleCode } from '../lib/site';

interface Props {
  kind: 'notFound' | 'serverError';
  locale: LocaleCode;
  /** Leaves the element the prerender step turns into the server's detail marker. */
  detailSlot?: boolean;
}

/**
 * The body of the 404 and 500 pages, prerendered as static pages and shown in place on a
 * client-side navigation to an unknown path. The server may put a detail at the marker.
 */
export function ErrorMessage({ kind, locale, detailSlot }: Props) {
  const { t } = useTranslation();
  return (
    <section className="error-page">
      <h1>{t(`errors.${kind}.title`)}</h1>
      <p>{t(`errors.${kind}.body`)}</p>
      {detailSlot && <div className="error-detail-slot" />}
      <p>
        <a className="button" href={pagePath('index', locale)}>
          {t(`errors.${kind}.home`)}
        </a>
      </p>
    </section>
  );
}
