import { useTranslation } from '../i18n/react';
import { SelectField } from '../ui/fields/SelectField';
import { precisionChoices, type Precision } from './logic/precision';

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
