// The header's History button with its badge. It is all that every page carries of the
// history: the panel and the data layer load when it is used (./HistoryRoot.tsx).
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/react';
import { useStore } from '../../lib/store';
import { reloadOnce } from '../../router/reloadGuard';
import { Badge } from '../../ui/Badge';
import { followUnseen, unseen } from './unseen';

export function HistoryButton() {
  const { t, i18n } = useTranslation();
  const count = useStore(unseen, undefined, () => 0);
  useEffect(followUnseen, []);
  const open = () => {
    import('./HistoryRoot').then(
      (app) => app.open(i18n).catch((err: unknown) => console.error('The history could not be opened:', err)),
      // A chunk that fails to load (a new build replaced it) gets one full reload.
      (err: unknown) => {
        if (!reloadOnce(location.pathname + location.search)) console.error('The history failed to load:', err);
      },
    );
  };
  return (
    <button type="button" className="history-button" aria-haspopup="dialog" title={t('nav.history')} onClick={open}>
      <svg className="header-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M3.5 12a8.5 8.5 0 1 0 2.6-6.1" />
        <path d="M3 4v4.5h4.5" />
        <path d="M12 7.5V12l3 2" />
      </svg>
      <span className="visually-hidden">{t('nav.history')}</span>
      <Badge count={count} label={t('nav.historyNew', { count })} />
    </button>
  );
}
