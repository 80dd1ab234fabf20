import type { ReactNode } from 'react';
import { Field } from '../../ui/fields/Field';

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
  return (
    <Field
      id={id}
      className="field-computed"
      label={
        <>
          {label} <span className="computed-badge">({badge})</span>
        </>
      }
      hint={hint}
      after={suffix}
    >
      {(aria) => <input id={id} name={id} type="text" readOnly value={value} {...aria} />}
    </Field>
  );
}
