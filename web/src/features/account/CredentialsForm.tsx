// Signing in and creating an account: one form in two modes, so that switching keeps what was
// typed. Mistakes are caught before sending where that is certain; the server's answer is
// shown next to the field it concerns, and the form keeps its values.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { historySession } from '../history/public';
import { useTranslation } from '../../i18n/react';
import type { Account } from './controller';
import { checkCredentials, displayNameLength, fieldError, passwordLengths } from './logic/errors';
import { FormError } from '../../ui/fields/Field';
import { PasswordField } from '../../ui/fields/PasswordField';
import { TextField } from '../../ui/fields/TextField';
import { useFormErrors } from './useFormErrors';

type Mode = 'signIn' | 'signUp';

export function CredentialsForm({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const [mode, setMode] = useState<Mode>('signIn');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [pending, setPending] = useState(false);
  // Entries saved on this device before signing in: offered to the account (default yes).
  const [deviceEntries, setDeviceEntries] = useState(0);
  const [keepHistory, setKeepHistory] = useState(true);
  useEffect(() => {
    let live = true;
    historySession.deviceEntries().then(
      (n) => live && setDeviceEntries(n),
      () => undefined, // no history here: nothing to offer
    );
    return () => void (live = false);
  }, []);
  const errors = useFormErrors(['email', 'password', 'displayName', 'form']);
  const heading = useRef<HTMLHeadingElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const mistakes = checkCredentials(mode, email, password);
    if (mistakes.length) return errors.show(mistakes);
    errors.clear();
    setPending(true);
    const c = { email: email.trim(), password };
    const keep = deviceEntries > 0 && keepHistory;
    const failure = await (mode === 'signIn' ? account.signIn(c, keep) : account.signUp({ ...c, displayName: displayName.trim() }, keep));
    setPending(false); // after a success this form is gone: the dialog shows the account
    if (failure) errors.show([fieldError(failure)]);
  };

  const switchMode = () => {
    setMode(mode === 'signIn' ? 'signUp' : 'signIn');
    errors.clear();
    heading.current?.focus();
  };

  // "The email address or the password is wrong" concerns both fields, and neither alone.
  const formMessage = errors.message('form');
  const both = formMessage ? 'account-form-error' : undefined;
  const signingUp = mode === 'signUp';
  return (
    <div className="account-body">
      <h2 id="account-title" ref={heading} tabIndex={-1}>
        {t(mode)}
      </h2>
      <p className="account-intro">{t('intro')}</p>
      <form noValidate onSubmit={(e) => void submit(e)} aria-labelledby="account-title">
        <TextField
          id="account-email"
          label={t('email')}
          type="email"
          autoComplete={signingUp ? 'email' : 'username'}
          inputMode="email"
          spellCheck={false}
          autoCapitalize="none"
          value={email}
          onChange={(v) => {
            setEmail(v);
            errors.edited('email');
          }}
          error={errors.message('email')}
          alsoInvalidBy={both}
          inputRef={errors.ref('email')}
          data-autofocus=""
        />
        <PasswordField revealLabel={t('showPassword')}
          id="account-password"
          label={t('password')}
          autoComplete={signingUp ? 'new-password' : 'current-password'}
          hint={signingUp ? t('passwordHint', passwordLengths) : undefined}
          value={password}
          onChange={(v) => {
            setPassword(v);
            errors.edited('password');
          }}
          error={errors.message('password')}
          alsoInvalidBy={both}
          inputRef={errors.ref('password')}
        />
        {signingUp && (
          <TextField
            id="account-display-name"
            label={t('displayNameOptional')}
            hint={t('displayNameHint')}
            autoComplete="nickname"
            maxLength={displayNameLength.max}
            value={displayName}
            onChange={(v) => {
              setDisplayName(v);
              errors.edited('displayName');
            }}
            error={errors.message('displayName')}
            inputRef={errors.ref('displayName')}
          />
        )}
        {deviceEntries > 0 && (
          <div className="account-check">
            <input id="account-keep-history" type="checkbox" checked={keepHistory} onChange={(e) => setKeepHistory(e.target.checked)} aria-describedby="account-keep-history-hint" />
            <label htmlFor="account-keep-history">{t('keepHistory')}</label>
            <p id="account-keep-history-hint" className="field-hint">
              {t('keepHistoryHint', { count: deviceEntries })}
            </p>
          </div>
        )}
        <FormError id="account-form-error" message={formMessage} />
        <div className="account-actions">
          <button type="submit" aria-disabled={pending || undefined}>
            {t(mode)}
          </button>
        </div>
      </form>
      <p className="account-switch">
        {t(signingUp ? 'haveAccount' : 'noAccount')}{' '}
        <button type="button" className="account-link" onClick={switchMode}>
          {t(signingUp ? 'signIn' : 'signUp')}
        </button>
      </p>
    </div>
  );
}
