// The signed-in visitor's account: who they are and signing out, then four tabs: profile
// (name and avatar), preferences, security (password, sign out everywhere), and their data
// (export, delete).
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import type { Account } from './controller';
import { DataPanel } from './DataPanel';
import { PreferencesPanel } from './PreferencesPanel';
import { ProfilePanel } from './ProfilePanel';
import { SecurityPanel } from './SecurityPanel';
import type { AccountUser } from './session';

const tabs = ['profile', 'preferences', 'security', 'data'] as const;
type Tab = (typeof tabs)[number];

interface Props {
  account: Account;
  user: AccountUser;
  /** Closes the dialog. */
  close: () => void;
}

export function SignedInView({ account, user, close }: Props) {
  const { t } = useTranslation('account');
  const [tab, setTab] = useState<Tab>('profile');
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement | null>());

  // Arrow keys move between the tabs (and select them), as in any tab list.
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.indexOf(tab);
    const next =
      e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i + tabs.length - 1) % tabs.length] : e.key === 'Home' ? tabs[0] : e.key === 'End' ? tabs[tabs.length - 1] : undefined;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  const signOut = async () => {
    await account.signOut();
    close();
  };

  return (
    <div className="account-body">
      <h2 id="account-title">{t('title')}</h2>
      <div className="account-who">
        <p className="account-who-text">
          {user.displayName && <span className="account-who-name">{user.displayName}</span>}
          <span className="account-who-email">{t('signedInAs', { email: user.email })}</span>
        </p>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          {t('signOut')}
        </button>
      </div>
      <div className="account-tabs" role="tablist" aria-label={t('sections')} onKeyDown={onKeyDown}>
        {tabs.map((id) => (
          <button
            key={id}
            ref={(el) => void tabRefs.current.set(id, el)}
            type="button"
            role="tab"
            id={`account-tab-${id}`}
            aria-selected={id === tab}
            aria-controls={`account-panel-${id}`}
            tabIndex={id === tab ? 0 : -1}
            onClick={() => setTab(id)}
            data-autofocus={id === tab ? '' : undefined}
          >
            {t(`tabs.${id}`)}
          </button>
        ))}
      </div>
      <div className="account-panel" role="tabpanel" id={`account-panel-${tab}`} aria-labelledby={`account-tab-${tab}`}>
        {tab === 'profile' && <ProfilePanel account={account} user={user} />}
        {tab === 'preferences' && <PreferencesPanel account={account} close={close} />}
        {tab === 'security' && <SecurityPanel account={account} user={user} close={close} />}
        {tab === 'data' && <DataPanel account={account} user={user} close={close} />}
      </div>
    </div>
  );
}
