// Numbers as people write them in the page's language, for every calculator field.
//
// The separators come from Intl rather than from a table of our own, so a new locale needs no
// change here. Reading is forgiving where the intent is plain (full-width digits from an IME,
// any kind of space between groups, an English number pasted into a German page) and strict
// where it is not: a string that could mean two different numbers, or none, is rejected so the
// field can say so instead of silently computing with a guess.
//
// Rules for the ambiguous cases:
//  - In languages whose decimal separator is a dot (en, zh, ja, ko) a comma is only ever a
//    thousands separator, so `12,34`, `1,5` and `0,5` are not numbers. There, readers take
//    `1,500` for fifteen hundred without a second thought; quietly reading `1,5` as 1.5 would
//    make one character mean two things by the count of digits after it.
//  - In languages whose decimal separator is a comma (de, fr, es, pt) a dot is a thousands
//    separator where it can be one: the digits form well-made groups of three after a first
//    group of one to three digits not starting with 0 (`1.500` = 1500, `1.234.567`). Any other
//    lone dot is a decimal point (`1.5`, `0.500`, `1234.567`, `3.14159`), because people paste
//    numbers written the English way. So `1,000` there is 1, as a German reads it. A dot
//    after the decimal comma (`1,234.5`) is rejected, not guessed.
//  - Spaces (plain, no-break, narrow no-break, thin, figure, ideographic) separate thousands in
//    every language, as the SI writes them, with the same grouping rule.
//  - Scientific notation (`1.5e3`, `1,5E3` in de) takes no thousands separators in its
//    mantissa, so there a German dot is always a decimal point: `1.500e3` = 1500.
//  - A number may start or end with its decimal separator (`.5`, `1.`): the field answers as
//    you type, and `1.` is on the way to `1.5`.
//  - A result too large for a double (`1e400`) is not a number; one too small underflows to 0
//    as in any calculator, and -0 is read as 0.

/** The outcome of reading a field: a finite number, or why there is none. */
export type ParseResult =
  | { ok: true; value: number }
  | { ok: false; error: 'empty' | 'notANumber' };

/** Options for formatNumber. */
export type FormatOptions = {
  /** Most digits after the decimal point, 0 to 20; 6 by default. */
  maxDecimals?: number;
};

type Separators = { decimal: string; groups: ReadonlySet<string> };

const notANumber: ParseResult = { ok: false, error: 'notANumber' };

/**
 * Reads a number written the way `lang` (a BCP 47 tag) writes them, with the leniencies and
 * strictness described at the top of this file. Never returns NaN or an infinity as ok.
 */
export function parseNumber(text: string, lang: string): ParseResult {
  const s = normalise(text);
  if (s === '') return { ok: false, error: 'empty' };

  let sign = '';
  let rest = s;
  if (rest[0] === '+' || rest[0] === '-') {
    sign = rest[0] === '-' ? '-' : '';
    rest = rest.slice(1);
  }

  const [mantissaText, exponent, ...more] = rest.split(/[eE]/);
  if (more.length > 0 || mantissaText === undefined) return notANumber;
  if (exponent !== undefined && !/^[+-]?\d+$/.test(exponent)) return notANumber;

  const mantissa = readMantissa(mantissaText, separators(lang), exponent === undefined);
  if (mantissa === null) return notANumber;

  const value = Number(`${sign}${mantissa.int || '0'}.${mantissa.frac || '0'}e${exponent ?? '0'}`);
  if (!Number.isFinite(value)) return notANumber;
  return { ok: true, value: value + 0 }; // + 0 turns -0 into 0
}

/**
 * Shows a computed value for reading, rounded for display only: at most `maxDecimals` digits
 * after the decimal point, trailing zeros dropped, thousands grouped as `lang` groups them, and
 * Intl's minus sign. Values too small to show in that many decimals (other than 0) or at least
 * 1e15 come out in scientific notation with max(6, maxDecimals) significant digits, so a
 * result never reads as a misleading "0" or a wall of digits. Throws a RangeError for NaN or an
 * infinity: callers validate first, and a blank or "NaN" must never reach the page.
 */
export function formatNumber(value: number, lang: string, opts: FormatOptions = {}): string {
  const maxDecimals = opts.maxDecimals ?? 6;
  if (!Number.isInteger(maxDecimals) || maxDecimals < 0 || maxDecimals > 20) {
    throw new RangeError(`formatNumber: maxDecimals must be 0 to 20, not ${maxDecimals}`);
  }
  if (!Number.isFinite(value)) {
    throw new RangeError(`formatNumber: ${value} is not a finite number`);
  }
  // Intl writes -0 as "-0"; a length of minus nothing is just nothing.
  if (value === 0) return formatter(lang, 'fixed', maxDecimals).format(0);

  const magnitude = Math.abs(value);
  const scientific = magnitude >= 1e15 || magnitude < Number(`1e-${maxDecimals}`);
  return scientific
    ? formatter(lang, 'scientific', Math.max(6, maxDecimals)).format(value)
    : formatter(lang, 'fixed', maxDecimals).format(value);
}

/** The decimal separator of `lang`, as Intl writes it: "." in en, "," in de. */
export function decimalSeparator(lang: string): string {
  return separators(lang).decimal;
}

/**
 * Writes a number for an input field: every digit of the double (no rounding), the page
 * language's decimal separator and no grouping, so parseNumber reads back the same value.
 */
export function inputText(value: number, lang: string): string {
  if (!Number.isFinite(value)) throw new RangeError(`inputText: ${value} is not a finite number`);
  return String(value).replace('.', decimalSeparator(lang));
}

// IME full-width forms, other minus signs and other spaces become the ASCII ones the parser
// knows; direction marks (which some locales put around numbers) go.
function normalise(text: string): string {
  return text
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[\u3002\uFF61]/g, '.') // the ideographic full stop some IMEs type after digits
    .replace(/[\u2212\uFE63]/g, '-')
    .replace(/[\u200E\u200F\u061C]/g, '')
    .trim()
    .replace(/[\u00A0\u2007\u2009\u202F\u3000]/g, ' ');
}

// Caches the separators and formatters per language: building an Intl.NumberFormat costs far
// more than using one, and a results table formats dozens of numbers on every keystroke. The
// entries are immutable facts about a locale, so sharing them cannot leak state between callers.
const separatorCache = new Map<string, Separators>();
const formatterCache = new Map<string, Intl.NumberFormat>();

function separators(lang: string): Separators {
  let seps = separatorCache.get(lang);
  if (seps === undefined) {
    const parts = new Intl.NumberFormat(lang).formatToParts(12345.6);
    const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
    const group = normalise(parts.find((p) => p.type === 'group')?.value ?? ' ') || ' ';
    // The other of dot and comma can be a group separator too (see the rules above).
    const other = decimal === ',' ? '.' : ',';
    seps = { decimal, groups: new Set([group, ' ', other].filter((g) => g !== decimal)) };
    separatorCache.set(lang, seps);
  }
  return seps;
}

function formatter(lang: string, kind: 'fixed' | 'scientific', digits: number): Intl.NumberFormat {
  const key = `${lang}\u0000${kind}\u0000${digits}`;
  let f = formatterCache.get(key);
  if (f === undefined) {
    f =
      kind === 'fixed'
        ? new Intl.NumberFormat(lang, { maximumFractionDigits: digits })
        : new Intl.NumberFormat(lang, { notation: 'scientific', maximumSignificantDigits: digits });
    formatterCache.set(key, f);
  }
  return f;
}

// Splits a mantissa into its integer and fraction digits, or returns null if it is not one.
function readMantissa(
  m: string,
  seps: Separators,
  groupsAllowed: boolean,
): { int: string; frac: string } | null {
  const groups = new Set(groupsAllowed ? seps.groups : []);
  for (const c of m) {
    if (!(c >= '0' && c <= '9') && c !== seps.decimal && !seps.groups.has(c)) return null;
  }

  let int = m;
  let frac = '';
  const point = m.indexOf(seps.decimal);
  if (point !== -1) {
    if (m.indexOf(seps.decimal, point + 1) !== -1) return null;
    int = m.slice(0, point);
    frac = m.slice(point + 1);
  } else if (seps.decimal === ',' && m.includes('.')) {
    // The German dot: thousands where it can be, else a decimal point.
    const dot = m.lastIndexOf('.');
    const groupDot = groups.has('.') && /^\d{3}$/.test(m.slice(dot + 1)) && isGrouped(m, '.');
    if (!groupDot) {
      int = m.slice(0, dot);
      frac = m.slice(dot + 1);
      groups.delete('.');
    }
  }

  if (!/^\d*$/.test(frac)) return null;
  const intDigits = ungroup(int, groups);
  if (intDigits === null || (intDigits === '' && frac === '')) return null;
  return { int: intDigits, frac };
}

// The digits of an integer part, which is either bare digits or grouped in threes with one of
// the allowed separators throughout.
function ungroup(int: string, groups: ReadonlySet<string>): string | null {
  if (/^\d*$/.test(int)) return int;
  const sep = [...int].find((c) => !(c >= '0' && c <= '9'));
  if (sep === undefined || !groups.has(sep) || !isGrouped(int, sep)) return null;
  return int.split(sep).join('');
}

function isGrouped(int: string, sep: string): boolean {
  const [first, ...rest] = int.split(sep);
  return (
    first !== undefined &&
    /^[1-9]\d{0,2}$/.test(first) &&
    rest.length > 0 &&
    rest.every((g) => /^\d{3}$/.test(g))
  );
}
