// The account's security: change the password (the current one first; every other device is
// signed out), and sign out everywhere (every session, this one too).
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { limits, localeOf } from '../../lib/site';
import { FormError } from '../../ui/fields/Field';
import { PasswordField } from '../../ui/fields/PasswordField';
import type { Account } from './controller';
import { errorText, fieldError, passwordLengths, type FieldError } from './logic/errors';
import type { AccountUser } from './session';

interface Props {
  account: Account;
  user: AccountUser;
  close: () => void;
}

type Which = 'current' | 'new' | 'form';

export function SecurityPanel({ account, user, close }: Props) {
  const { t, i18n } = useTranslation('account');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<{ which: Which; error: FieldError }>();
  const [busy, setBusy] = useState(false);
  const currentInput = useRef<HTMLInputElement>(null);
  const newInput = useRef<HTMLInputElement>(null);
  const lang = localeOf(i18n.language).lang;

  const show = (which: Which, e: FieldError) => {
    setError({ which, error: e });
    const input = which === 'current' ? currentInput : which === 'new' ? newInput : undefined;
    if (input) requestAnimationFrame(() => input.current?.focus());
  };

  const change = async (e: FormEvent) => {
    e.preventDefault();
    if (!current) return show('current', { field: 'password', key: 'password-missing' });
    const length = [...next].length;
    if (length < limits.passwordMinLength || length > limits.passwordMaxLength) return show('new', { field: 'password', key: 'invalid-password' });
    setError(undefined);
    setBusy(true);
    const failure = await account.changePassword(current, next);
    setBusy(false);
    if (!failure) {
      setCurrent('');
      setNext('');
      return;
    }
    const fe = fieldError(failure);
    // The server's "wrong password" is about the current one, "invalid password" about the new.
    show(fe.key === 'wrong-password' ? 'current' : fe.key === 'invalid-password' ? 'new' : 'form', fe);
  };

  const everywhere = async () => {
    if (await account.signOutEverywhere()) close();
  };

  const message = (which: Which) => (error?.which === which ? errorText(t, error.error, lang) : undefined);
  return (
    <>
      <section aria-labelledby="account-password-heading">
        <h3 id="account-password-heading">{t('security.passwordHeading')}</h3>
        <p>{t('security.passwordIntro')}</p>
        <form noValidate onSubmit={(e) => void change(e)}>
          {/* For password managers: the account the passwords belong to. */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordField
            revealLabel={t('showPassword')}
            id="account-current-password"
            label={t('security.current')}
            autoComplete="current-password"
            value={current}
            onChange={(v) => {
              setCurrent(v);
              setError(undefined);
            }}
            error={message('current')}
            inputRef={currentInput}
          />
          <PasswordField
            revealLabel={t('showPassword')}
            id="account-new-password"
            label={t('security.new')}
            autoComplete="new-password"
            hint={t('passwordHint', passwordLengths)}
            value={next}
            onChange={(v) => {
              setNext(v);
              setError(undefined);
            }}
            error={message('new')}
            inputRef={newInput}
          />
          <FormError id="account-password-error" message={message('form')} />
          <div className="account-actions">
            <button type="submit" disabled={busy}>
              {t('security.change')}
            </button>
          </div>
        </form>
      </section>
      <section aria-labelledby="account-everywhere-heading">
        <h3 id="account-everywhere-heading">{t('security.everywhereHeading')}</h3>
        <p>{t('security.everywhereIntro')}</p>
        <div className="account-actions">
          <button type="button" className="secondary" onClick={() => void everywhere()}>
            {t('security.everywhere')}
          </button>
        </div>
      </section>
    </>
  );
}
