// The account's data: the storage it takes of the quota, export all of it as JSON, or delete
// the account (password, then a confirmation), which signs this device out.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { localeOf } from '../../lib/site';
import type { Account } from './controller';
import { errorText, fieldError, type FieldError } from './logic/errors';
import { storageView, type Storage } from './logic/storage';
import { FormError } from '../../ui/fields/Field';
import { PasswordField } from '../../ui/fields/PasswordField';
import type { AccountUser } from './session';

interface Props {
  account: Account;
  user: AccountUser;
  close: () => void;
}

export function DataPanel({ account, user, close }: Props) {
  const { t, i18n } = useTranslation('account');
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<FieldError>();
  const passwordInput = useRef<HTMLInputElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const lang = localeOf(i18n.language).lang;

  const showError = (e: FieldError) => {
    setError(e);
    setConfirming(false);
    if (e.field === 'password') requestAnimationFrame(() => passwordInput.current?.focus());
  };

  const ask = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return showError({ field: 'password', key: 'password-missing' });
    setError(undefined);
    setConfirming(true);
  };

  const remove = async () => {
    const failure = await account.deleteAccount(password);
    if (failure) return showError(fieldError(failure));
    close();
  };

  const message = error && errorText(t, error, lang);
  return (
    <>
      <StorageSection account={account} lang={lang} />
      <section aria-labelledby="account-export-heading">
        <h3 id="account-export-heading">{t('export')}</h3>
        <p>{t('exportIntro')}</p>
        <div className="account-actions">
          <button type="button" onClick={() => void account.exportData()}>
            {t('export')}
          </button>
        </div>
      </section>
      <section aria-labelledby="account-delete-heading" className="account-danger">
        <h3 id="account-delete-heading">{t('delete')}</h3>
        <p>{t('deleteIntro')}</p>
        <form noValidate onSubmit={ask}>
          {/* For password managers: the account the password belongs to. */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordField revealLabel={t('showPassword')}
            id="account-delete-password"
            label={t('password')}
            autoComplete="current-password"
            value={password}
            onChange={(v) => {
              setPassword(v);
              setError(undefined);
              setConfirming(false);
            }}
            error={error?.field === 'password' ? message : undefined}
            inputRef={passwordInput}
          />
          <FormError id="account-delete-error" message={error && error.field !== 'password' ? message : undefined} />
          {!confirming && (
            <div className="account-actions">
              <button type="submit" className="account-danger-button" ref={deleteButton}>
                {t('delete')}
              </button>
            </div>
          )}
        </form>
        {confirming && (
          <Confirm
            email={user.email}
            onYes={() => void remove()}
            onNo={() => {
              setConfirming(false);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }}
          />
        )}
      </section>
    </>
  );
}

function Confirm({ email, onYes, onNo }: { email: string; onYes: () => void; onNo: () => void }) {
  const { t } = useTranslation('account');
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="account-confirm" role="group" aria-labelledby="account-confirm-text">
      <p id="account-confirm-text">{t('confirmDelete', { email })}</p>
      <div className="account-actions">
        <button type="button" className="account-danger-button" onClick={onYes}>
          {t('confirmYes')}
        </button>
        {/* The safe choice has focus: Enter does not erase an account by accident. */}
        <button type="button" className="secondary" onClick={onNo} ref={cancel}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}

/** The storage used of the quota: a meter, read afresh each time the panel opens. */
function StorageSection({ account, lang }: { account: Account; lang: string }) {
  const { t } = useTranslation('account');
  const [storage, setStorage] = useState<Storage>();
  useEffect(() => {
    let live = true;
    void account.storage().then((s) => live && setStorage(s));
    return () => {
      live = false;
    };
  }, [account]);
  if (!storage) return null;
  const view = storageView(storage, lang);
  const text = view.quota === undefined ? t('storageUsedNoQuota', { used: view.used }) : t('storageUsed', { used: view.used, quota: view.quota });
  return (
    <section aria-labelledby="account-storage-heading">
      <h3 id="account-storage-heading">{t('storage')}</h3>
      <p>{t('storageIntro')}</p>
      <p id="account-storage-text">{text}</p>
      {view.fraction !== undefined && (
        <meter className="account-storage-meter" aria-labelledby="account-storage-heading" aria-describedby="account-storage-text"
          min={0} max={1} low={0.8} high={0.95} optimum={0} value={view.fraction}>
          {text}
        </meter>
      )}
    </section>
  );
}
