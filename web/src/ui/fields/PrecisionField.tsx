import { useTranslation } from '../../i18n/react';
import { SelectField } from './SelectField';

export const precisionChoices = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] as const;
export type Precision = (typeof precisionChoices)[number];
/** Up to 6 decimals, trailing zeros dropped: what the visitor sees unless they choose. */
export const defaultPrecision: Precision = '6';

/** How many decimals results show: rounding is for display only. */
export function PrecisionField({ id, value, onChange }: { id: string; value: Precision; onChange: (p: Precision) => void }) {
  const { t } = useTranslation('calculator');
  return (
    <SelectField
      id={id}
      label={t('precision')}
      value={value}
      options={precisionChoices.map((p) => ({ value: p, label: p }))}
      onChange={onChange}
    />
  );
}
