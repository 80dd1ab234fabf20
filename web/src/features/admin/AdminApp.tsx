import { useMemo, useState, useSyncExternalStore } from 'react';
import { LanguageSwitcher } from '../../page/LanguageSwitcher';
import { useTranslation } from '../../i18n/react';
import { localeOf, pagePath, type LocaleCode } from '../../lib/site';
import { ThemeSwitch } from '../../theme/ThemeSwitch';
import { Dashboard } from './Dashboard';
import { TokenForm } from './TokenForm';
import { pushSearch, useSearch } from './address';
import { adminPath } from './path';
import { dayOf, rangeFromSearch, searchOf } from './logic/range';
import { storeToken, storedToken } from './logic/token';
import './admin.css';

const unwatched = () => () => {};

/**
 * The operator's dashboard: the token first, then the report. Prerendered without either (the
 * page holds no data: every number comes from GET /api/v1/stats with the token), hydrated with
 * the token this tab already gave, if any.
 */
export function AdminApp({ locale }: { locale: LocaleCode }) {
  const { t } = useTranslation('admin');
  const stored = useSyncExternalStore(unwatched, storedToken, () => null);
  const [entered, setEntered] = useState<string | null>();
  const [refusal, setRefusal] = useState<401 | 404>();
  const token = entered === undefined ? stored : entered;
  const search = useSearch();
  // The report's days are UTC days; "today" is read once per page (a dashboard left open
  // overnight keeps its range until the operator picks another).
  const [today] = useState(() => dayOf(Date.now()));
  const range = useMemo(() => rangeFromSearch(search, today), [search, today]);

  const setToken = (next: string | null) => {
    storeToken(next);
    setEntered(next);
  };

  return (
    <>
      <a className="skip-link" href="#main">
        {t('translation:nav.skip')}
      </a>
      <header className="site-header">
        <div className="bar">
          <a className="brand" href={pagePath('index', locale)}>
            <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
              <rect width="32" height="32" rx="7" />
              <path d="M16 6v20M9 10l-4 6 4 6M23 10l4 6-4 6" />
            </svg>
            <span>{t('translation:site.name')}</span>
            <span className="visually-hidden">: {t('backToSite')}</span>
          </a>
          <div className="header-actions">
            <LanguageSwitcher locale={locale} hrefOf={(code) => adminPath(code) + search} />
            <ThemeSwitch />
            {token !== null && (
              <button type="button" className="secondary" onClick={() => setToken(null)}>
                {t('signOut')}
              </button>
            )}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="admin">
        <h1>{t('title')}</h1>
        {token === null ? (
          <TokenForm
            refusal={refusal}
            onToken={(next) => {
              setRefusal(undefined);
              setToken(next);
            }}
          />
        ) : (
          <Dashboard
            key={token}
            token={token}
            range={range}
            today={today}
            lang={localeOf(locale).lang}
            onRange={(r) => pushSearch(searchOf(r, today))}
            onRefused={(status) => {
              setRefusal(status);
              setToken(null);
            }}
          />
        )}
      </main>
    </>
  );
}
