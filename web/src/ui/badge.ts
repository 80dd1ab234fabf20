// What a count badge shows (the header's history count): nothing for no items, the number up
// to 99, then "99+" (spec: the badge caps at 99) so it never outgrows its pill.

/** The largest count shown as is. */
export const badgeMax = 99;

/** The badge's text; empty means the badge is hidden. */
export function badgeText(count: number): string {
  if (!(count > 0)) return ''; // also NaN
  return count > badgeMax ? `${badgeMax}+` : String(Math.floor(count));
}
