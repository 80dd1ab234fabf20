import { useTranslation } from '../../i18n/react';
import { angleUnits } from './logic/angle';
import type { FieldError } from './logic/result';
import { RESULT_FIELD } from './logic/result';
import { shapes, shapeSpec, type FieldSpec } from './logic/shapes';
import { lengthUnits, type LengthUnit } from '../../calculator/logic/length';
import { decimalSeparator, formatNumber } from '../../lib/number';
import { NumberField } from '../../ui/fields/NumberField';
import { SelectField } from '../../ui/fields/SelectField';
import { toolPreferences, usePreferences } from '../../lib/preferences';
import { useQueryState } from '../../calculator/useQueryState';
import { AreaResultPanel } from './AreaResultPanel';
import { calculate } from './logic/calculate';
import { fieldLabels } from './logic/labels';
import { ShapeDiagram } from './ShapeDiagram';
import { areaCodec, defaultForm } from './logic/state';

interface Props {
  lang: string;
  search: string;
  replaceSearch: (search: string) => void;
}

const lengthUnitIds = Object.keys(lengthUnits) as LengthUnit[];

export function AreaCalculator({ lang, search, replaceSearch }: Props) {
  const { t } = useTranslation(['area', 'calculator']);
  const [form, setForm, query] = useQueryState(search, replaceSearch, areaCodec(lang), toolPreferences(usePreferences(), 'area-calculator'));
  const spec = shapeSpec(form.shape);
  const fields = spec.fields as readonly FieldSpec[];
  const result = calculate(form, lang);
  const errors = result && !result.ok ? result.errors : [];
  const shapeName = t(`shapes.${form.shape}`);

  const message = (f: FieldSpec, errs: readonly FieldError[]): string | undefined => {
    const e = errs[0];
    if (!e || e.code === 'required') return undefined; // the result panel says what is missing
    switch (e.code) {
      case 'notANumber':
        return t('calculator:errors.notANumber', { example: formatNumber(1.5, lang) });
      case 'mustBePositive':
      case 'outOfRange':
        return t(`calculator:errors.${e.code}`);
      case 'angleRange':
        return t(f.kind === 'angle' && f.range === 'upTo360' ? 'errors.angleUpTo360' : 'errors.angleBelow180');
      case 'invalidVertex':
        return t('errors.invalidVertex', { line: errs.map((x) => x.line).join(', ') });
      default:
        return t(`errors.${e.code}`);
    }
  };

  const setText = (id: string, text: string) => setForm((f) => ({ ...f, texts: { ...f.texts, [id]: text } }));
  const unitSymbol = (f: FieldSpec) =>
    f.kind === 'length' || f.kind === 'vertices' ? form.unit : f.kind === 'angle' ? (form.angleUnit === 'deg' ? '°' : 'rad') : undefined;

  return (
    <div className="calculator">
      <form className="calc-form" aria-label={t('form')} onSubmit={(e) => e.preventDefault()} noValidate>
        <SelectField
          id="area-shape"
          label={t('shape')}
          value={form.shape}
          options={shapes.map((s) => ({ value: s.id, label: t(`shapes.${s.id}`) }))}
          onChange={(shape) => setForm((f) => ({ ...f, shape }))}
        />
        <ShapeDiagram shape={form.shape} label={t('diagram', { shape: shapeName })} />
        <div className="field-pair">
          <SelectField
            id="area-unit"
            label={t('lengthUnit')}
            value={form.unit}
            options={lengthUnitIds.map((u) => ({ value: u, label: `${t(`calculator:units.${u}`)} (${u})` }))}
            onChange={(unit) => setForm((f) => ({ ...f, unit }))}
          />
          {fields.some((f) => f.kind === 'angle') && (
            <SelectField
              id="area-angle-unit"
              label={t('angleUnit')}
              value={form.angleUnit}
              options={angleUnits.map((u) => ({ value: u, label: t(`angleUnits.${u}`) }))}
              onChange={(angleUnit) => setForm((f) => ({ ...f, angleUnit }))}
            />
          )}
        </div>
        {fields.map((f) => {
          const label = t(`fields.${fieldLabels[form.shape][f.id] ?? 'side'}`);
          const symbol = 'symbol' in f ? f.symbol : undefined;
          const unit = unitSymbol(f);
          return (
            <NumberField
              key={`${form.shape}-${f.id}`}
              id={`area-${f.id}`}
              label={
                <>
                  {label}
                  {symbol && !namesSymbol(label, symbol) && <span className="symbol"> {symbol}</span>}
                </>
              }
              value={form.texts[f.id] ?? ''}
              onChange={(text) => setText(f.id, text)}
              error={message(f, errors.filter((e) => e.field === f.id))}
              inputMode={f.kind === 'count' ? 'numeric' : f.kind === 'vertices' ? 'text' : 'decimal'}
              rows={f.kind === 'vertices' ? 6 : undefined}
              hint={f.kind === 'vertices' ? t('verticesHint') : undefined}
              placeholder={f.kind === 'vertices' ? vertexExample(lang) : undefined}
              suffix={unit && f.kind !== 'vertices' ? <span className="unit-suffix">{unit}</span> : undefined}
            />
          );
        })}
      </form>
      <AreaResultPanel
        form={form}
        result={result?.ok ? result : undefined}
        resultError={errors.some((e) => e.field === RESULT_FIELD) ? t('calculator:errors.outOfRange') : undefined}
        fieldErrors={errors.some((e) => e.field !== RESULT_FIELD && e.code !== 'required')}
        shapeName={shapeName}
        lang={lang}
        query={query}
        onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
        onReset={() => setForm({ ...defaultForm, texts: {} })}
      />
    </div>
  );
}

/** Whether a label already names its symbol as a letter of its own ("Side a", "边 a"). */
function namesSymbol(label: string, symbol: string): boolean {
  return new RegExp(`(?<!\\p{Script=Latin})${symbol}(?!\\p{Script=Latin})`, 'u').test(label);
}

/** Three points, one per line, as the page's language writes them: `0,0`, or `0;0` where the comma is the decimal separator. */
function vertexExample(lang: string): string {
  const sep = decimalSeparator(lang) === ',' ? '; ' : ', ';
  return ['0 0', '4 0', '4 3'].map((p) => p.replace(' ', sep)).join('\n');
}
