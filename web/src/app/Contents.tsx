import { useTranslation } from '../i18n/react';

/** The sections of a long page, linked: each section can be reached and its link shared. */
export function Contents({ sections }: { sections: { id: string; text: string }[] }) {
  const { t } = useTranslation();
  return (
    <nav className="contents" aria-labelledby="contents-title">
      <p id="contents-title" className="contents-title">
        {t('nav.toc')}
      </p>
      <ol>
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`}>{s.text}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
