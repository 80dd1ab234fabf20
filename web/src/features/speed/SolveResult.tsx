import { useTranslation } from '../../i18n/react';
import { UnitsTable } from '../../calculator/UnitsTable';
import { isPaceUnit, paceUnitIds } from './logic/pace';
import type { Quantity } from './logic/solve';
import { speedUnitIds } from './logic/units';
import { PrecisionField } from '../../calculator/PrecisionField';
import { ResultActions } from '../../calculator/ResultActions';
import { saveResult } from './history';
import type { SolveOutcome } from './logic/calculate';
import { speedUnitOfPace, type Formatter } from './logic/format';
import { speedUnitLabel } from './logic/labels';
import type { SpeedForm } from './logic/state';

interface Props {
  form: SpeedForm;
  outcome: SolveOutcome;
  fmt: Formatter;
  lang: string;
  query: string;
  update: (patch: Partial<SpeedForm>) => void;
  onReset: () => void;
}

const order: readonly Quantity[] = ['speed', 'distance', 'time'];

export function SolveResult({ form, outcome, fmt, query, update, onReset }: Props) {
  const { t } = useTranslation(['speed', 'calculator']);

  let body;
  let copyText: string | undefined;
  if (outcome.ok) {
    const { solution, speed, distance, time } = outcome;
    const texts: Record<Quantity, string> = {
      speed: fmt.speed(speed, form.speedUnit),
      distance: fmt.distance(distance, form.distanceUnit),
      time: fmt.timeBoth(time, form.timeFormat),
    };
    // The formula is v = d / t: a pace goes into it as the speed it stands for.
    const formulaUnit = isPaceUnit(form.speedUnit) ? speedUnitOfPace[form.speedUnit] : form.speedUnit;
    const working = solution.substituted((q) =>
      q === 'speed' ? fmt.speed(speed, formulaUnit) : q === 'distance' ? texts.distance : fmt.time(time, form.timeFormat),
    );
    const shown = [solution.target, ...order.filter((q) => q !== solution.target)];
    copyText = [...shown.map((q) => `${t(q)}: ${texts[q]}`), working].join('\n');
    body = {
      summary: shown.map((q, i) => (
        <p key={q} className={i === 0 ? 'result-main' : 'result-secondary'}>
          <span className="result-label">{t(q)}</span> <output>{texts[q]}</output>
        </p>
      )),
      details: (
        <>
          <dl className="formula">
            <dt>{t('calculator:formula')}</dt>
            <dd>
              <code>{solution.formula}</code>
            </dd>
            <dt>{t('calculator:withValues')}</dt>
            <dd>
              <code>{working}</code>
            </dd>
          </dl>
          <UnitsTable
            caption={t('allSpeeds')}
            rows={[...speedUnitIds, ...paceUnitIds].map((u) => ({
              key: u,
              label: speedUnitLabel(t, u),
              value: fmt.speedValue(speed, u),
              current: u === form.speedUnit,
            }))}
          />
        </>
      ),
    };
  } else {
    const { formError, fieldErrors, empty } = outcome;
    const message =
      formError === 'outOfRange'
        ? t('calculator:errors.outOfRange')
        : formError === 'chooseTarget'
          ? t('chooseTarget')
          : formError === 'required' && form.target !== 'auto'
            ? t(`needFor.${form.target}`)
            : Object.keys(fieldErrors).length > 0
              ? t('calculator:fixFields')
              : empty
                ? t('empty')
                : t('needTwo');
    body = { summary: <p className="result-empty">{message}</p>, details: null };
  }

  return (
    <section className="calc-result" aria-labelledby="speed-solve-heading speed-result-heading">
      <h3 id="speed-result-heading">{t('calculator:result')}</h3>
      <div className="result-summary" aria-live="polite" aria-atomic="true">
        {body.summary}
      </div>
      <PrecisionField id="speed-dp" value={form.precision} onChange={(precision) => update({ precision })} />
      {body.details}
      <ResultActions resultText={copyText} search={query} onReset={onReset} onSave={saveResult} />
    </section>
  );
}
