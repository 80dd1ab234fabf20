// The dialog's text fields: a label, the input, a hint, and the error next to it, tied to the
// input by aria-describedby so that a screen reader reads it with the field.
import { useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from '../../i18n/react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  /** The message of what is wrong with the value. */
  error?: string;
  /** The id of a message elsewhere that also concerns this field (a sign-in that failed). */
  alsoInvalidBy?: string;
  /** Shown after the input (the password's show button). */
  extra?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

export function InputField({ id, label, value, onChange, hint, error, alsoInvalidBy, extra, inputRef, ...input }: Props) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : '', alsoInvalidBy ?? ''].filter(Boolean).join(' ') || undefined;
  const invalid = !!error || !!alsoInvalidBy;
  return (
    <div className={invalid ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        <input
          {...input}
          id={id}
          name={id}
          ref={inputRef}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
        {extra}
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <p id={errorId} className="field-error">
        {error}
      </p>
    </div>
  );
}

type PasswordProps = Omit<Props, 'type' | 'extra'>;

/** A password field with a button that shows what was typed (and hides it again). */
export function PasswordField(props: PasswordProps) {
  const { t } = useTranslation('account');
  const [shown, setShown] = useState(false);
  return (
    <InputField
      {...props}
      type={shown ? 'text' : 'password'}
      spellCheck={false}
      autoCapitalize="none"
      extra={
        <button type="button" className="secondary account-reveal" aria-pressed={shown} aria-controls={props.id} onClick={() => setShown(!shown)}>
          {t('showPassword')}
        </button>
      }
    />
  );
}

/** A message about the whole form (not one field), announced when it appears. */
export function FormError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} className="field-error account-form-error" role="alert">
      {message}
    </p>
  );
}
