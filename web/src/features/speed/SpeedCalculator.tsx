import { useTranslation } from '../../i18n/react';
import { toolPreferences, usePreferences } from '../../lib/preferences';
import { useQueryState } from '../../calculator/useQueryState';
import { LegsSection } from './LegsSection';
import { SolveSection } from './SolveSection';
import { speedCodec, type SpeedForm } from './logic/state';

interface Props {
  lang: string;
  search: string;
  replaceSearch: (search: string) => void;
}

/** The two parts of the page, sharing one query string: solve v = d / t, and average over legs. */
export function SpeedCalculator({ lang, search, replaceSearch }: Props) {
  const { t } = useTranslation(['speed', 'calculator']);
  const [form, setForm, query] = useQueryState(search, replaceSearch, speedCodec(lang), toolPreferences(usePreferences(), 'speed-calculator'));
  const update = (patch: Partial<SpeedForm>) => setForm((f) => ({ ...f, ...patch }));
  return (
    <>
      <section className="speed-part" aria-labelledby="speed-solve-heading">
        <h2 id="speed-solve-heading">{t('solveHeading')}</h2>
        <SolveSection form={form} lang={lang} query={query} update={update} setForm={setForm} />
      </section>
      <section className="speed-part" aria-labelledby="speed-legs-heading">
        <h2 id="speed-legs-heading">{t('legsHeading')}</h2>
        <p>{t('legsIntro')}</p>
        <LegsSection form={form} lang={lang} query={query} update={update} setForm={setForm} />
      </section>
    </>
  );
}
