import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { useTranslation } from '../../i18n/react';
import { lengthUnits } from '../../calculator/logic/length';
import { formatNumber, inputText } from '../../lib/number';
import { racePresets } from './logic/distance';
import type { Quantity } from './logic/solve';
import { NumberField } from '../../ui/fields/NumberField';
import { SelectField } from '../../ui/fields/SelectField';
import { solveForm } from './logic/calculate';
import { ComputedField } from './ComputedField';
import { formatter } from './logic/format';
import { distanceUnitOptions, fieldMessage, speedUnitOptions, timeFormatOptions, timeHint, timeKindOf } from './logic/labels';
import { SolveResult } from './SolveResult';
import { resetSolve, targets, type SpeedForm } from './logic/state';

interface Props {
  form: SpeedForm;
  lang: string;
  query: string;
  update: (patch: Partial<SpeedForm>) => void;
  setForm: Dispatch<SetStateAction<SpeedForm>>;
}

const fieldIds: Readonly<Record<Quantity, string>> = { speed: 'speed-v', distance: 'speed-d', time: 'speed-t' };

/** Two of speed, distance and time in; the third out. */
export function SolveSection({ form, lang, query, update, setForm }: Props) {
  const { t } = useTranslation(['speed', 'calculator']);
  const outcome = solveForm(form, lang);
  const fmt = formatter(lang, Number(form.precision));
  const solved = outcome.ok ? outcome.solution.target : undefined;

  const computedValue = (q: Quantity): string => {
    if (!outcome.ok) return '';
    switch (q) {
      case 'speed':
        return fmt.speedValue(outcome.speed, form.speedUnit);
      case 'distance':
        return fmt.distanceValue(outcome.distance, form.distanceUnit);
      case 'time':
        return fmt.timeValue(outcome.time, form.timeFormat);
    }
  };

  const suffixes: Record<Quantity, ReactNode> = {
    speed: (
      <SelectField id="speed-vu" label={t('speedUnit')} hiddenLabel value={form.speedUnit} options={speedUnitOptions(t)} onChange={(speedUnit) => update({ speedUnit })} />
    ),
    distance: (
      <SelectField id="speed-du" label={t('distanceUnit')} hiddenLabel value={form.distanceUnit} options={distanceUnitOptions(t)} onChange={(distanceUnit) => update({ distanceUnit })} />
    ),
    time: (
      <SelectField id="speed-tf" label={t('timeFormat')} hiddenLabel value={form.timeFormat} options={timeFormatOptions(t)} onChange={(timeFormat) => update({ timeFormat })} />
    ),
  };

  const field = (q: Quantity) => {
    const label = t(q);
    if (q === form.target) {
      return (
        <ComputedField
          id={fieldIds[q]}
          label={label}
          value={computedValue(q)}
          badge={t('computed')}
          hint={outcome.ok ? t('computedHint') : t('computedWaiting')}
          suffix={suffixes[q]}
        />
      );
    }
    const kind = q === 'time' ? form.timeFormat : q === 'speed' ? timeKindOf(form.speedUnit) : undefined;
    const filledIn = q === solved; // auto: the empty field, filled in as a placeholder
    return (
      <NumberField
        id={fieldIds[q]}
        label={
          <>
            {label}
            {filledIn && <span className="computed-badge"> ({t('computed')})</span>}
          </>
        }
        value={form[q]}
        onChange={(text) => update({ [q]: text })}
        error={outcome.ok ? undefined : fieldMessage(t, outcome.fieldErrors[q], lang, kind)}
        inputMode={kind ? 'text' : 'decimal'}
        placeholder={filledIn ? computedValue(q) : undefined}
        hint={filledIn ? t('computedHint') : kind ? timeHint(t, kind, lang) : undefined}
        suffix={suffixes[q]}
      />
    );
  };

  const preset = (metres: number) => {
    const distanceUnit = form.distanceUnit === 'm' ? 'm' : 'km';
    update({ distanceUnit, distance: inputText(metres / lengthUnits[distanceUnit], lang) });
  };

  return (
    <div className="calculator">
      <form className="calc-form speed-form" aria-label={t('solveForm')} onSubmit={(e) => e.preventDefault()} noValidate>
        <fieldset className="speed-choice">
          <legend>{t('solveFor')}</legend>
          {targets.map((target) => (
            <label key={target}>
              <input type="radio" name="speed-solve" value={target} checked={form.target === target} onChange={() => update({ target })} />{' '}
              {t(`targets.${target}`)}
            </label>
          ))}
        </fieldset>
        {field('speed')}
        {field('distance')}
        {form.target !== 'distance' && (
          <div className="speed-presets" role="group" aria-labelledby="speed-presets-label">
            <span id="speed-presets-label" className="speed-presets-label">
              {t('presets')}
            </span>
            {racePresets.map((p) => (
              <button key={p.id} type="button" className="secondary" onClick={() => preset(p.metres)}>
                {p.id === 'half-marathon' || p.id === 'marathon' ? t(`presetNames.${p.id}`) : `${formatNumber(p.metres / 1000, lang)} km`}
              </button>
            ))}
          </div>
        )}
        {field('time')}
      </form>
      <SolveResult form={form} outcome={outcome} fmt={fmt} lang={lang} query={query} update={update} onReset={() => setForm(resetSolve)} />
    </div>
  );
}
