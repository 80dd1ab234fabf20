import type { ReactNode } from 'react';
import { Field } from './Field';

export interface Option<T extends string> {
  value: T;
  label: string;
  /** The language of the label, where it differs from the page's (a language's own name). */
  lang?: string;
}

interface Props<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly Option<T>[];
  onChange: (value: T) => void;
  hint?: ReactNode;
  /** Label the select without a visible label or frame (a unit next to its field). */
  hiddenLabel?: boolean;
}

/** A labelled select of a fixed list of values. */
export function SelectField<T extends string>({ id, label, value, options, onChange, hint, hiddenLabel }: Props<T>) {
  const select = (aria: object) => (
    <select id={id} name={id} value={value} onChange={(e) => onChange(e.target.value as T)} {...aria}>
      {options.map((o) => (
        <option key={o.value} value={o.value} lang={o.lang}>
          {o.label}
        </option>
      ))}
    </select>
  );
  if (hiddenLabel) return select({ 'aria-label': label });
  return (
    <Field id={id} label={label} hint={hint}>
      {select}
    </Field>
  );
}
