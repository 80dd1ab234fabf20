import { useTranslation } from '../../i18n/react';
import { isPaceUnit } from './logic/pace';
import { PrecisionField } from '../../calculator/PrecisionField';
import { ResultActions } from '../../calculator/ResultActions';
import { saveResult } from './history';
import type { LegsOutcome } from './logic/calculate';
import { speedUnitOfPace, type Formatter } from './logic/format';
import type { SpeedForm } from './logic/state';

interface Props {
  form: SpeedForm;
  outcome: LegsOutcome;
  fmt: Formatter;
  query: string;
  update: (patch: Partial<SpeedForm>) => void;
  onReset: () => void;
}

export const AVERAGE_FORMULA = 'v̄ = Σd / Σt';

export function LegsResult({ form, outcome, fmt, query, update, onReset }: Props) {
  const { t } = useTranslation(['speed', 'calculator']);
  const unit = form.legSpeedUnit;
  // Speeds are averaged as speeds; with a pace unit they are shown in the matching speed unit.
  const speedUnit = isPaceUnit(unit) ? speedUnitOfPace[unit] : unit;
  const du = form.legDistanceUnit;
  const tf = form.legTimeFormat;

  let summary;
  let details = null;
  let copyText: string | undefined;
  if (outcome.ok) {
    const average = { metres: outcome.totalDistance, seconds: outcome.totalTime };
    const legSpeeds = outcome.legs.map((l) => fmt.speed({ metres: l.distance, seconds: l.time }, speedUnit));
    const lines: [string, string][] = [
      [t('averageSpeed'), fmt.speed(average, speedUnit)],
      ...(isPaceUnit(unit) ? [[t('averagePace'), fmt.speed(average, unit)] as [string, string]] : []),
      [t('meanOfSpeeds'), fmt.speed({ metres: outcome.meanOfSpeeds, seconds: 1 }, speedUnit)],
      [t('totalDistance'), fmt.distance(outcome.totalDistance, du)],
      [t('totalTime'), fmt.timeBoth(outcome.totalTime, tf)],
    ];
    const why = outcome.equalTimes ? t('whyEqualTimes') : outcome.equalDistances ? t('whyEqualDistances') : t('whyDiffer');
    const working = `${lines[0][1]} = ${fmt.distance(outcome.totalDistance, du)} / ${fmt.time(outcome.totalTime, tf)}`;
    const meanWorking = `(${legSpeeds.join(' + ')}) / ${outcome.legs.length} = ${fmt.speed({ metres: outcome.meanOfSpeeds, seconds: 1 }, speedUnit)}`;
    copyText = [...lines.map(([label, value]) => `${label}: ${value}`), working, why].join('\n');
    summary = (
      <>
        {lines.map(([label, value], i) => (
          <p key={label} className={i === 0 ? 'result-main' : 'result-secondary'}>
            <span className="result-label">{label}</span> <output>{value}</output>
          </p>
        ))}
        <p className="result-note">{why}</p>
      </>
    );
    details = (
      <>
        <dl className="formula">
          <dt>{t('calculator:formula')}</dt>
          <dd>
            <code>{AVERAGE_FORMULA}</code>
          </dd>
          <dt>{t('calculator:withValues')}</dt>
          <dd>
            <code>{working}</code>
          </dd>
          <dt>{t('meanOfSpeeds')}</dt>
          <dd>
            <code>{meanWorking}</code>
          </dd>
        </dl>
        <table className="units-table speed-legs-table">
          <caption>{t('legsTable')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('legColumn')}</th>
              <th scope="col">{t('distance')}</th>
              <th scope="col">{t('time')}</th>
              <th scope="col">{t('speed')}</th>
            </tr>
          </thead>
          <tbody>
            {outcome.legs.map((l, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td>{fmt.distance(l.distance, du)}</td>
                <td>{fmt.time(l.time, tf)}</td>
                <td>{legSpeeds[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </>
    );
  } else {
    const message = outcome.outOfRange
      ? t('calculator:errors.outOfRange')
      : outcome.errors.length > 0
        ? t('calculator:fixFields')
        : outcome.empty
          ? t('legsEmpty')
          : t('legsIncomplete', { legs: outcome.incomplete.map((i) => i + 1).join(', ') });
    summary = <p className="result-empty">{message}</p>;
  }

  return (
    <section className="calc-result" aria-labelledby="speed-legs-heading speed-legs-result-heading">
      <h3 id="speed-legs-result-heading">{t('calculator:result')}</h3>
      <div className="result-summary" aria-live="polite" aria-atomic="true">
        {summary}
      </div>
      <PrecisionField id="speed-legs-dp" value={form.precision} onChange={(precision) => update({ precision })} />
      {details}
      <ResultActions resultText={copyText} search={query} onReset={onReset} onSave={saveResult} />
    </section>
  );
}
