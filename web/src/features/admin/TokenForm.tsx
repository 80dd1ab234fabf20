import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/react';
import { PasswordField } from '../../ui/fields/PasswordField';

interface Props {
  /** Why the last token was not taken, if it was not. */
  refusal?: 401 | 404;
  onToken: (token: string) => void;
}

/** Asks for the operator token; the dashboard's first report tells whether the server takes it. */
export function TokenForm({ refusal, onToken }: Props) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [token, setToken] = useState('');
  const [empty, setEmpty] = useState(false);
  const error = empty ? t('token.empty') : refusal === 401 ? t('token.refused') : refusal === 404 ? t('token.notConfigured') : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim();
    setEmpty(value === '');
    if (value !== '') onToken(value);
  };

  return (
    <section className="admin-signin" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('token.heading')}</h2>
      <p>{t('token.intro')}</p>
      <form onSubmit={submit} noValidate>
        <PasswordField
          revealLabel={t('token.show')}
          id={`${id}-token`}
          label={t('token.label')}
          autoComplete="current-password"
          value={token}
          onChange={(v) => {
            setToken(v);
            setEmpty(false);
          }}
          error={error}
          // A refusal sends the operator straight back here.
          autoFocus={refusal !== undefined}
        />
        <button type="submit">{t('token.submit')}</button>
      </form>
    </section>
  );
}
