export interface Option<T extends string> {
  value: T;
  label: string;
}

interface Props<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly Option<T>[];
  onChange: (value: T) => void;
  /** Label the select without a visible label (a unit next to its field). */
  hiddenLabel?: boolean;
}

/** A labelled select of a fixed list of values. */
export function SelectField<T extends string>({ id, label, value, options, onChange, hiddenLabel }: Props<T>) {
  const select = (
    <select id={id} name={id} value={value} onChange={(e) => onChange(e.target.value as T)} aria-label={hiddenLabel ? label : undefined}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
  if (hiddenLabel) return select;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-row">{select}</div>
    </div>
  );
}
