import { useTranslation } from '../../i18n/react';
import type { AreaOk } from './logic/result';
import { areaUnitIds, areaUnitSymbols, convertArea, squareOf, type AreaUnit } from './logic/units';
import { formatNumber } from '../../lib/number';
import { PrecisionField } from '../../calculator/PrecisionField';
import { ResultActions } from '../../calculator/ResultActions';
import { saveResult } from './history';
import { SelectField } from '../../ui/fields/SelectField';
import { UnitsTable } from '../../calculator/UnitsTable';
import type { AreaForm } from './logic/state';

interface Props {
  form: AreaForm;
  result?: AreaOk;
  /** A message about the result itself (valid inputs whose area overflows). */
  resultError?: string;
  /** Some field holds a value that is wrong (not merely missing). */
  fieldErrors: boolean;
  shapeName: string;
  lang: string;
  query: string;
  onChange: (patch: Partial<AreaForm>) => void;
  onReset: () => void;
}

export function AreaResultPanel({ form, result, resultError, fieldErrors, shapeName, lang, query, onChange, onReset }: Props) {
  const { t } = useTranslation(['area', 'calculator']);
  const fmt = (n: number) => formatNumber(n, lang, { maxDecimals: Number(form.precision) });
  const inputUnit = squareOf(form.unit);
  const shownUnit: AreaUnit = form.areaUnit || inputUnit;
  const areaIn = (u: AreaUnit) => (result ? convertArea(result.area, inputUnit, u) : 0);
  const areaText = result && `${fmt(areaIn(shownUnit))} ${areaUnitSymbols[shownUnit]}`;
  const perimeterLabel = result?.perimeterFormula?.startsWith('C') ? t('circumference') : t('perimeter');
  const perimeterText =
    result?.perimeter !== undefined ? `${result.perimeterApproximate ? '≈ ' : ''}${fmt(result.perimeter)} ${form.unit}` : undefined;
  const areaWorking = result && `${result.substituted(fmt)} = ${fmt(result.area)} ${areaUnitSymbols[inputUnit]}`;
  const perimeterWorking =
    result?.substitutedPerimeter && `${result.substitutedPerimeter(fmt)} ${result.perimeterApproximate ? '≈' : '='} ${fmt(result.perimeter!)} ${form.unit}`;
  const copyText = result && [shapeName, areaWorking, perimeterWorking, shownUnit !== inputUnit ? `A = ${areaText}` : '']
    .filter(Boolean)
    .join('\n');

  return (
    <section className="calc-result" aria-labelledby="area-result-heading">
      <h2 id="area-result-heading">{t('calculator:result')}</h2>
      <div className="result-summary" aria-live="polite" aria-atomic="true">
        {result ? (
          <>
            <p className="result-main">
              <span className="result-label">{t('area')}</span> <output htmlFor="area-shape">{areaText}</output>
            </p>
            {perimeterText && (
              <p className="result-secondary">
                <span className="result-label">{perimeterLabel}</span> <output>{perimeterText}</output>
                {result.perimeterApproximate && <span className="result-note"> ({t('approximate')})</span>}
              </p>
            )}
          </>
        ) : (
          <p className="result-empty">{resultError ?? (fieldErrors ? t('calculator:fixFields') : t('empty'))}</p>
        )}
      </div>
      <div className="field-pair">
        <SelectField
          id="area-in"
          label={t('areaUnit')}
          value={shownUnit}
          options={areaUnitIds.map((u) => ({ value: u, label: `${t(`areaUnits.${u}`)} (${areaUnitSymbols[u]})` }))}
          onChange={(u) => onChange({ areaUnit: u === inputUnit ? '' : u })}
        />
        <PrecisionField id="area-dp" value={form.precision} onChange={(precision) => onChange({ precision })} />
      </div>
      {result && (
        <>
          <dl className="formula">
            <dt>{t('calculator:formula')}</dt>
            <dd>
              <code>{result.formula}</code>
              {result.perimeterFormula && (
                <>
                  <br />
                  <code>{result.perimeterFormula}</code>
                </>
              )}
            </dd>
            <dt>{t('calculator:withValues')}</dt>
            <dd>
              <code>{areaWorking}</code>
              {perimeterWorking && (
                <>
                  <br />
                  <code>{perimeterWorking}</code>
                </>
              )}
            </dd>
          </dl>
          <UnitsTable
            caption={t('allUnits')}
            rows={areaUnitIds.map((u) => ({
              key: u,
              label: `${t(`areaUnits.${u}`)} (${areaUnitSymbols[u]})`,
              value: fmt(areaIn(u)),
              current: u === shownUnit,
            }))}
          />
        </>
      )}
      <ResultActions resultText={copyText} search={query} onReset={onReset} onSave={saveResult} />
    </section>
  );
}
