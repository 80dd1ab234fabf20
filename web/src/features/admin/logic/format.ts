// Numbers, shares and days in the dashboard's language. Days are UTC calendar days (the
// report's), so they are formatted in UTC whatever the operator's time zone.

export interface Formats {
  count: (n: number) => string;
  share: (fraction: number) => string;
  /** 24 Nov */
  day: (day: string) => string;
  /** Tue, 24 Nov 2026 */
  longDay: (day: string) => string;
  /** 14:05 in the operator's own time zone */
  time: (ms: number) => string;
  /** A browser language tag by its name, or undefined when Intl does not know it. */
  language: (tag: string) => string | undefined;
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

export function formats(lang: string): Formats {
  const count = new Intl.NumberFormat(lang);
  const share = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  const day = new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const longDay = new Intl.DateTimeFormat(lang, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  const time = new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' });
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames(lang, { type: 'language', fallback: 'none' });
  } catch {
    names = undefined; // an engine without DisplayNames shows the tags
  }
  return {
    count: (n) => count.format(n),
    share: (f) => share.format(Number.isFinite(f) ? f : 0),
    day: (d) => day.format(utc(d)),
    longDay: (d) => longDay.format(utc(d)),
    time: (ms) => time.format(ms),
    language: (tag) => {
      try {
        return names?.of(tag);
      } catch {
        return undefined; // not a well-formed tag: shown as it came
      }
    },
  };
}
