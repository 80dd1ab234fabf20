import { useTranslation } from '../i18n/react';

export interface UnitRow {
  key: string;
  /** The unit's name and symbol. */
  label: string;
  value: string;
  /** The unit the result is shown in above: highlighted. */
  current: boolean;
}

/** A result in every unit at once. */
export function UnitsTable({ caption, rows }: { caption: string; rows: readonly UnitRow[] }) {
  const { t } = useTranslation('calculator');
  return (
    <table className="units-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('unitColumn')}</th>
          <th scope="col">{t('valueColumn')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} aria-current={r.current ? 'true' : undefined}>
            <th scope="row">{r.label}</th>
            <td>{r.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
