// The header's account button: "Sign in", or the signed-in visitor's avatar and name. It is all
// that every page carries of accounts; the dialog and everything behind it load on demand
// (./AccountRoot.tsx), when the button is used or, in the background, when a token is stored.
import { useEffect } from 'react';
import type { I18n } from '../../i18n/translator';
import { useTranslation } from '../../i18n/react';
import { reloadOnce } from '../../router/reloadGuard';
import { hasStoredToken, initialOf, session, shownName, useSession } from './session';

const loadAccount = () => import('./AccountRoot');

/** Opens the dialog, loading it first; a chunk that fails to load gets one full reload. */
function openAccount(i18n: I18n) {
  loadAccount().then(
    (account) => account.open(i18n),
    (err: unknown) => {
      if (!reloadOnce(location.pathname + location.search)) console.error('The account dialog failed to load:', err);
    },
  );
}

export function AccountButton() {
  const { t, i18n } = useTranslation();
  const s = useSession();

  useEffect(() => {
    if (!hasStoredToken()) return;
    session.set({ status: 'checking' });
    // In the background: a failure leaves "Account" in the header, and a click tries again.
    loadAccount().then(
      (account) => account.resume(i18n),
      (err: unknown) => console.warn('The account could not be loaded:', err),
    );
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once per page load

  const user = s.status === 'signed-in' ? s.user : undefined;
  const name = user && shownName(user);
  return (
    <button
      type="button"
      className="account-button"
      aria-haspopup="dialog"
      data-state={s.status}
      // While the session is checked the label is not shown (account.css): the name says it.
      aria-label={user ? t('nav.accountOf', { name: name === user.email ? name : `${name} (${user.email})` }) : s.status === 'checking' ? t('nav.account') : undefined}
      title={user?.email}
      onClick={() => openAccount(i18n)}
    >
      <span className="account-avatar" aria-hidden="true">
        {user?.avatar ? (
          <img src={user.avatar} alt="" width="28" height="28" />
        ) : user ? (
          initialOf(user)
        ) : (
          <svg className="header-icon" viewBox="0 0 24 24" focusable="false">
            <circle cx="12" cy="8.5" r="4" />
            <path d="M4 21c0-4.4 3.6-7.5 8-7.5s8 3.1 8 7.5" />
          </svg>
        )}
      </span>
      <span className="account-label">{name ?? t(s.status === 'checking' ? 'nav.account' : 'nav.signIn')}</span>
    </button>
  );
}
