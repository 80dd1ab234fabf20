import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from '../../i18n/react';
import { NumberField } from '../../ui/fields/NumberField';
import { SelectField } from '../../ui/fields/SelectField';
import { legsForm } from './logic/calculate';
import { formatter, unitSymbol } from './logic/format';
import { distanceUnitOptions, fieldMessage, speedUnitOptions, timeExample, timeFormatOptions, timeKindOf } from './logic/labels';
import { LegsResult } from './LegsResult';
import { emptyLeg, legModes, MAX_LEGS, resetLegs, type LegForm, type SpeedForm } from './logic/state';

interface Props {
  form: SpeedForm;
  lang: string;
  query: string;
  update: (patch: Partial<SpeedForm>) => void;
  setForm: Dispatch<SetStateAction<SpeedForm>>;
}

const valueId = (n: number) => `speed-leg-${n}-value`;

/** A trip in legs, each a distance and a time or a speed and a time; the average over all. */
export function LegsSection({ form, lang, query, update, setForm }: Props) {
  const { t } = useTranslation(['speed', 'calculator']);
  const outcome = legsForm(form, lang);
  const fmt = formatter(lang, Number(form.precision));
  const legs = form.legs;

  // After adding or removing a leg, focus goes to the first field of the new leg, or of the
  // leg that took the removed one's place.
  const focusNext = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = undefined;
  });

  const setLeg = (i: number, patch: Partial<LegForm>) =>
    setForm((f) => ({ ...f, legs: f.legs.map((l, j) => (j === i ? { ...l, ...patch } : l)) }));
  const add = () => {
    if (legs.length >= MAX_LEGS) return;
    focusNext.current = valueId(legs.length + 1);
    setForm((f) => ({ ...f, legs: [...f.legs, emptyLeg(Math.max(0, ...f.legs.map((l) => l.key)) + 1)] }));
  };
  const remove = (i: number) => {
    if (legs.length <= 1) return;
    focusNext.current = valueId(Math.min(i, legs.length - 2) + 1);
    setForm((f) => ({ ...f, legs: f.legs.filter((_, j) => j !== i) }));
  };

  const errorOf = (i: number, field: 'value' | 'time') =>
    outcome.ok ? undefined : outcome.errors.find((e) => e.leg === i && e.field === field)?.error;
  const speedKind = timeKindOf(form.legSpeedUnit);

  return (
    <div className="calculator">
      <form className="calc-form speed-form" aria-label={t('legsForm')} onSubmit={(e) => e.preventDefault()} noValidate>
        <fieldset className="speed-units">
          <legend>{t('units')}</legend>
          <div className="field-pair">
            <SelectField id="speed-lu" label={t('distanceUnit')} value={form.legDistanceUnit} options={distanceUnitOptions(t)} onChange={(legDistanceUnit) => update({ legDistanceUnit })} />
            <SelectField id="speed-lv" label={t('speedUnit')} value={form.legSpeedUnit} options={speedUnitOptions(t)} onChange={(legSpeedUnit) => update({ legSpeedUnit })} />
            <SelectField id="speed-lt" label={t('timeFormat')} value={form.legTimeFormat} options={timeFormatOptions(t)} onChange={(legTimeFormat) => update({ legTimeFormat })} />
          </div>
        </fieldset>
        <ol className="speed-legs">
          {legs.map((leg, i) => {
            const n = i + 1;
            const isSpeed = leg.mode === 'vt';
            const valueKind = isSpeed ? speedKind : undefined;
            return (
              <li key={leg.key}>
                <fieldset className="speed-leg">
                  <legend>{t('leg', { n })}</legend>
                  <SelectField
                    id={`speed-leg-${n}-mode`}
                    label={t('legMode')}
                    value={leg.mode}
                    options={legModes.map((m) => ({ value: m, label: t(`legModes.${m}`) }))}
                    onChange={(mode) => setLeg(i, { mode })}
                  />
                  <div className="field-pair">
                    <NumberField
                      id={valueId(n)}
                      label={isSpeed ? t('speed') : t('distance')}
                      value={leg.value}
                      onChange={(value) => setLeg(i, { value })}
                      error={fieldMessage(t, errorOf(i, 'value'), lang, valueKind)}
                      inputMode={valueKind ? 'text' : 'decimal'}
                      placeholder={valueKind ? timeExample(valueKind, lang) : undefined}
                      suffix={<span className="unit-suffix">{isSpeed ? unitSymbol(form.legSpeedUnit) : form.legDistanceUnit}</span>}
                    />
                    <NumberField
                      id={`speed-leg-${n}-time`}
                      label={t('time')}
                      value={leg.time}
                      onChange={(time) => setLeg(i, { time })}
                      error={fieldMessage(t, errorOf(i, 'time'), lang, form.legTimeFormat)}
                      inputMode={form.legTimeFormat === 'hms' ? 'text' : 'decimal'}
                      placeholder={timeExample(form.legTimeFormat, lang)}
                      suffix={form.legTimeFormat === 'hours' ? <span className="unit-suffix">h</span> : undefined}
                    />
                  </div>
                  {legs.length > 1 && (
                    <button type="button" className="secondary" onClick={() => remove(i)}>
                      {t('removeLeg', { n })}
                    </button>
                  )}
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="speed-legs-actions">
          <button type="button" onClick={add} disabled={legs.length >= MAX_LEGS} aria-describedby={legs.length >= MAX_LEGS ? 'speed-legs-max' : undefined}>
            {t('addLeg')}
          </button>
          {legs.length >= MAX_LEGS && (
            <p id="speed-legs-max" className="field-hint">
              {t('maxLegs', { max: MAX_LEGS })}
            </p>
          )}
        </div>
      </form>
      <LegsResult form={form} outcome={outcome} fmt={fmt} query={query} update={update} onReset={() => setForm(resetLegs)} />
    </div>
  );
}
