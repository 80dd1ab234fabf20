import { useTranslation } from '../../i18n/react';
import { PageIntro } from '../../page/PageIntro';
import { ToolIcon } from '../ToolIcon';
import type { PageProps } from '../../page/module';
import { pagePath, toolPages } from '../../lib/site';

const reasons = ['private', 'free', 'offline', 'languages'] as const;

export default function Home({ payload }: PageProps) {
  const { t } = useTranslation();
  const { locale } = payload.route;
  const faq = pagePath('faq', locale);
  return (
    <>
      <PageIntro page="index" />
      <section aria-labelledby="tools-heading">
        <h2 id="tools-heading">{t('home.toolsHeading')}</h2>
        <ul className="cards">
          {toolPages.map((p) => (
            <li key={p.name} className="card tool-card">
              <ToolIcon page={p.name} />
              <h3>
                <a href={pagePath(p.name, locale)}>{t(`pages.${p.name}.label`)}</a>
              </h3>
              <p>{t(`pages.${p.name}.card`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="why-heading">
        <h2 id="why-heading">{t('home.whyHeading')}</h2>
        <ul className="reasons">
          {reasons.map((r) => (
            <li key={r}>
              <h3>{t(`home.why.${r}.title`)}</h3>
              <p>{t(`home.why.${r}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      {payload.faqTeaser && (
        <section aria-labelledby="faq-heading">
          <h2 id="faq-heading">{t('home.faqHeading')}</h2>
          <ul className="faq-teaser">
            {payload.faqTeaser.map((q) => (
              <li key={q.id}>
                <a href={`${faq}#${q.id}`}>{q.question}</a>
              </li>
            ))}
          </ul>
          <p>
            <a href={faq}>{t('home.faqMore')}</a>
          </p>
        </section>
      )}
    </>
  );
}
