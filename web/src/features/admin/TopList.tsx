import { useId, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/react';
import type { Formats } from './logic/format';

export interface Row {
  key: string;
  label: ReactNode;
  views: number;
}

interface Props {
  title: string;
  /** The header of the first column. */
  column: string;
  rows: Row[];
  /** Views of the whole period: each row's share is of these. */
  total: number;
  empty: string;
  fmt: Formats;
}

/** Rows shown before "Show all". */
const shortList = 8;

/** A top list: a table of names, views and shares, the share drawn as a bar behind the row. */
export function TopList({ title, column, rows, total, empty, fmt }: Props) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, shortList);
  return (
    <section className="admin-top" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? (
        <p className="admin-empty">{empty}</p>
      ) : (
        <>
          <table aria-labelledby={id}>
            <thead>
              <tr>
                <th scope="col">{column}</th>
                <th scope="col">{t('columns.views')}</th>
                <th scope="col">{t('columns.share')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => {
                const share = total > 0 ? r.views / total : 0;
                return (
                  <tr key={r.key} style={{ '--share': `${(share * 100).toFixed(2)}%` } as CSSProperties}>
                    <th scope="row">{r.label}</th>
                    <td>{fmt.count(r.views)}</td>
                    <td>{fmt.share(share)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length > shortList && (
            <button type="button" className="secondary admin-more" aria-expanded={all} onClick={() => setAll(!all)}>
              {all ? t('lists.showFewer') : t('lists.showAll', { count: rows.length })}
            </button>
          )}
        </>
      )}
    </section>
  );
}
