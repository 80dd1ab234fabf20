import { useState } from 'react';
import { TextField, type TextFieldProps } from './TextField';

interface Props extends Omit<TextFieldProps, 'type' | 'after'> {
  /** The text of the button that shows what was typed. */
  revealLabel: string;
}

/** A password field with a button that shows what was typed (and hides it again). */
export function PasswordField({ revealLabel, ...props }: Props) {
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      spellCheck={false}
      autoCapitalize="none"
      after={
        <button type="button" className="secondary field-reveal" aria-pressed={shown} aria-controls={props.id} onClick={() => setShown(!shown)}>
          {revealLabel}
        </button>
      }
    />
  );
}
