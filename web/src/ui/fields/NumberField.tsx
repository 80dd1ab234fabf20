import type { ReactNode } from 'react';
import { useFieldError } from './useFieldError';

interface Props {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (text: string) => void;
  /** The translated message of what is wrong with the value, if anything. */
  error?: string;
  /** A unit selector or symbol shown after the input. */
  suffix?: ReactNode;
  hint?: ReactNode;
  placeholder?: string;
  /** `decimal` for numbers, `text` for times (h:mm:ss needs the colon). */
  inputMode?: 'decimal' | 'numeric' | 'text';
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
}

/**
 * A labelled text field for a number (or a time, or a list of vertices). Its error is shown
 * next to it, tied to it by aria-describedby and announced by screen readers.
 */
export function NumberField({ id, label, value, onChange, error, suffix, hint, placeholder, inputMode = 'decimal', rows }: Props) {
  const [shownError, onBlur] = useFieldError(error, value);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', shownError ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: id,
    value,
    placeholder,
    onBlur,
    autoComplete: 'off',
    spellCheck: false,
    'aria-invalid': shownError ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
  return (
    <div className={shownError ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        {rows ? (
          <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...common} type="text" inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
        )}
        {suffix}
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <p id={errorId} className="field-error" aria-live="polite">
        {shownError}
      </p>
    </div>
  );
}
