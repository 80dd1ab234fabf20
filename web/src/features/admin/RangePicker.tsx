import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { lastDays, maxDays, presetOf, presets, rangeProblem, type Range } from './logic/range';

interface Props {
  range: Range;
  today: string;
  onChange: (range: Range) => void;
}

/** The period of the report: a shortcut for the last days, or any two days. */
export function RangePicker({ range, today, onChange }: Props) {
  const { t } = useTranslation('admin');
  const id = useId();
  // The fields are a draft until Show: typing a day must not fetch a report per keystroke.
  const [draft, setDraft] = useState(range);
  const [shown, setShown] = useState(range);
  const [problem, setProblem] = useState<string>();
  if (shown !== range) {
    // Another range came from outside (a shortcut, back or forward): the fields follow it.
    setShown(range);
    setDraft(range);
    setProblem(undefined);
  }
  const preset = presetOf(range, today);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = rangeProblem(draft, today);
    setProblem(p && t(`range.${p}`, { max: maxDays }));
    if (!p) onChange(draft);
  };

  return (
    <section className="admin-range" aria-labelledby={`${id}-legend`}>
      <h2 id={`${id}-legend`} className="visually-hidden">
        {t('range.legend')}
      </h2>
      <div className="admin-presets" role="group" aria-label={t('range.presets')}>
        {presets.map((n) => (
          <button key={n} type="button" className="secondary" aria-pressed={preset === n} onClick={() => onChange(lastDays(n, today))}>
            {t('range.last', { count: n })}
          </button>
        ))}
      </div>
      <form className="admin-dates" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-from`}>{t('range.from')}</label>
          <input
            id={`${id}-from`}
            type="date"
            max={today}
            value={draft.from}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-note ${id}-problem`}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{t('range.to')}</label>
          <input
            id={`${id}-to`}
            type="date"
            max={today}
            value={draft.to}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-note ${id}-problem`}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </div>
        <button type="submit">{t('range.apply')}</button>
        <p id={`${id}-note`} className="field-hint">
          {t('range.utc')}
        </p>
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      </form>
    </section>
  );
}
