// The one family of form fields: every field is this frame (a label, the control and what
// follows it, a hint, the error next to it) around its own control. The hint and the error are
// tied to the control by aria-describedby, so a screen reader reads them with the field, and
// the error is a polite live region, so it is heard when it appears.
import type { ReactNode } from 'react';

/** The attributes a field's control takes from its frame. */
export interface ControlAria {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export interface FrameProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The message of what is wrong with the value. */
  error?: string;
  /** The id of a message elsewhere that also concerns this field (a sign-in that failed). */
  alsoInvalidBy?: string;
  /** Shown after the control: a unit, or the password's show button. */
  after?: ReactNode;
  /** A class besides `field`, for a field that looks different (a computed one). */
  className?: string;
}

export function Field({ id, label, hint, error, alsoInvalidBy, after, className, children }: FrameProps & { children: (aria: ControlAria) => ReactNode }) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = !!error || !!alsoInvalidBy;
  const aria: ControlAria = {
    'aria-invalid': invalid || undefined,
    'aria-describedby': [hint ? hintId : '', error ? errorId : '', alsoInvalidBy ?? ''].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={['field', className, invalid && 'field-invalid'].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        {children(aria)}
        {after}
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <p id={errorId} className="field-error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

/** A message about the whole form (not one field), announced when it appears. */
export function FormError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} className="field-error form-error" role="alert">
      {message}
    </p>
  );
}
