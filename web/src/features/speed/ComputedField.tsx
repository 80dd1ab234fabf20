import type { ReactNode } from 'react';

interface Props {
  id: string;
  label: string;
  /** The computed value, or '' while there is none. */
  value: string;
  badge: string;
  hint: string;
  suffix?: ReactNode;
}

/**
 * The field being solved for: read-only (still focusable and read by screen readers), showing
 * the computed value, marked as computed in its label and its hint.
 */
export function ComputedField({ id, label, value, badge, hint, suffix }: Props) {
  const hintId = `${id}-hint`;
  return (
    <div className="field field-computed">
      <label htmlFor={id}>
        {label} <span className="computed-badge">({badge})</span>
      </label>
      <div className="field-row">
        <input id={id} name={id} type="text" readOnly value={value} aria-describedby={hintId} />
        {suffix}
      </div>
      <p id={hintId} className="field-hint">
        {hint}
      </p>
    </div>
  );
}
