// A small pill with a count (badge.ts decides the text). The number is for the eye; screen
// readers get the caller's label instead, which says what is counted ("3 saved calculations").
import { badgeText } from './badge';

interface Props {
  count: number;
  /** The accessible text, replacing the bare number for screen readers. */
  label: string;
}

export function Badge({ count, label }: Props) {
  const text = badgeText(count);
  if (!text) return null;
  return (
    <span className="badge">
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
