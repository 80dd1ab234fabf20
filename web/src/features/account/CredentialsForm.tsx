// Signing in and creating an account: one form in two modes, so that switching keeps what was
// typed. Mistakes are caught before sending where that is certain; the server's answer is
// shown next to the field it concerns, and the form keeps its values.
import { useRef, useState, type FormEvent } from 'react';
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
    const failure = await (mode === 'signIn' ? account.signIn(c) : account.signUp({ ...c, displayName: displayName.trim() }));
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
