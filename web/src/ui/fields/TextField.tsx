import type { InputHTMLAttributes, Ref } from 'react';
import { Field, type FrameProps } from './Field';

export interface TextFieldProps extends FrameProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input: an email address, a name, a password. */
export function TextField({ id, label, hint, error, alsoInvalidBy, after, value, onChange, inputRef, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} alsoInvalidBy={alsoInvalidBy} after={after}>
      {(aria) => <input {...input} id={id} name={id} ref={inputRef} value={value} onChange={(e) => onChange(e.target.value)} {...aria} />}
    </Field>
  );
}
