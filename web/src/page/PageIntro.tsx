import { useTranslation } from '../i18n/react';
import type { PageName } from '../lib/site';

/** The heading and lead paragraph every page opens with. */
export function PageIntro({ page }: { page: PageName }) {
  const { t } = useTranslation();
  return (
    <div className="intro">
      <h1>{t(`pages.${page}.heading`)}</h1>
      <p className="lead">{t(`pages.${page}.lead`)}</p>
    </div>
  );
}
