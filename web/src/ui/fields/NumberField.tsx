import type { ReactNode } from 'react';
import { Field } from './Field';
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
 * A field for a number (or a time, or a list of vertices) typed as the visitor writes it. Its
 * error waits for a pause in typing (useFieldError), so "1," is not called wrong on the way to
 * "1,5".
 */
export function NumberField({ id, label, value, onChange, error, suffix, hint, placeholder, inputMode = 'decimal', rows }: Props) {
  const [shownError, onBlur] = useFieldError(error, value);
  const common = { id, name: id, value, placeholder, onBlur, autoComplete: 'off', spellCheck: false } as const;
  return (
    <Field id={id} label={label} hint={hint} error={shownError} after={suffix}>
      {(aria) =>
        rows ? (
          <textarea {...common} {...aria} rows={rows} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...common} {...aria} type="text" inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}
