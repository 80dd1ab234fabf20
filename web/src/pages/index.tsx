import { useTranslation } from '../i18n/react';
import { PageIntro } from '../components/PageIntro';
import type { PageProps } from '../pageRegistry';
import { pagePath, toolPages } from '../site';

export default function Home({ payload }: PageProps) {
  const { t } = useTranslation();
  const { locale } = payload.route;
  return (
    <>
      <PageIntro page="index" />
      <section aria-labelledby="tools-heading">
        <h2 id="tools-heading">{t('home.toolsHeading')}</h2>
        <ul className="cards">
          {toolPages.map((p) => (
            <li key={p.name} className="card">
              <h3>
                <a href={pagePath(p.name, locale)}>{t(`pages.${p.name}.label`)}</a>
              </h3>
              <p>{t(`pages.${p.name}.card`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
