// Durations typed and shown by visitors: h:mm:ss (mm:ss and plain seconds too, with fractional
// seconds) or decimal hours. Numbers are in the page's language, so the caller supplies the
// number parser and formatter; this module only knows the shape of a time.

/** How a time field is written: clock notation, or a number of hours. */
export type TimeFormat = 'hms' | 'hours';

export type TimeError =
  | 'required'
  | 'notATime'
  | 'zeroTime'
  | 'mustBePositive'
  | 'minutesTooLarge'
  | 'secondsTooLarge';

/** Parses a number written in the page's language; undefined when it is not one. */
export type ParseNumber = (text: string) => number | undefined;

export type TimeResult = { ok: true; seconds: number } | { ok: false; error: TimeError };

const fail = (error: TimeError): TimeResult => ({ ok: false, error });

/**
 * Parses a duration into seconds. In 'hms' format: `h:mm:ss`, `mm:ss` or `ss`, the last field
 * may have a fraction (`1:02:03.5`, or `1:02:03,5` where the comma is the decimal separator);
 * hours have no upper bound, minutes and seconds must be below 60 when a larger field precedes
 * them (`90:00` is 90 minutes, `1:75:00` is an error). In 'hours' format: a decimal number of
 * hours (`1.5`); a clock time is read there too, since a colon leaves no doubt. A duration of
 * zero is an error: no speed, pace or leg can take no time.
 */
export function parseTime(text: string, format: TimeFormat, parseNumber: ParseNumber): TimeResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail('required');
  const sign = /^[-\u2212]/.exec(trimmed);
  if (sign && trimmed.includes(':')) {
    // A minus before a clock time: say what is wrong with it only when the rest is a time.
    const rest = parseTime(trimmed.slice(sign[0].length), format, parseNumber);
    return rest.ok || rest.error === 'zeroTime' ? fail('mustBePositive') : fail('notATime');
  }
  const seconds = trimmed.includes(':')
    ? parseClock(trimmed, parseNumber)
    : parsePlain(trimmed, format === 'hours' ? 3600 : 1, parseNumber);
  if (!seconds.ok) return seconds;
  if (seconds.seconds === 0) return fail('zeroTime');
  return seconds;
}

function parsePlain(text: string, secondsPerUnit: number, parseNumber: ParseNumber): TimeResult {
  const value = parseNumber(text);
  if (value === undefined || !Number.isFinite(value)) return fail('notATime');
  if (value < 0) return fail('mustBePositive');
  const seconds = value * secondsPerUnit;
  return Number.isFinite(seconds) ? { ok: true, seconds } : fail('notATime');
}

function parseClock(text: string, parseNumber: ParseNumber): TimeResult {
  const fields = text.split(':').map((f) => f.trim());
  if (fields.length > 3) return fail('notATime');
  const last = fields.pop() as string;
  if (!fields.every((f) => /^\d+$/.test(f))) return fail('notATime');
  const whole = /^(\d+)(?:[.,]\d+)?$/.exec(last);
  if (!whole) return fail('notATime');
  const secs = parseNumber(last);
  // The integer part must survive parsing: an English parser reads "03,5" as 35 (a grouping
  // comma), which must not pass for 3.5 seconds.
  if (secs === undefined || Math.floor(secs) !== Number(whole[1])) return fail('notATime');
  if (secs >= 60) return fail('secondsTooLarge');
  const [hours, minutes] = fields.length === 2 ? fields.map(Number) : [0, Number(fields[0])];
  if (fields.length === 2 && minutes >= 60) return fail('minutesTooLarge');
  const seconds = hours * 3600 + minutes * 60 + secs;
  return Number.isFinite(seconds) ? { ok: true, seconds } : fail('notATime');
}

export interface HmsOptions {
  /** Most digits after the decimal point of the seconds, 0 to 3; trailing zeros are dropped. */
  maxDecimals?: number;
  /** The page language's decimal separator. */
  decimalSeparator?: string;
  /** 'auto' leaves out a zero hours field (`5:00` for a pace); 'always' keeps it (`0:05:00`). */
  hours?: 'always' | 'auto';
}

/**
 * Formats seconds as `h:mm:ss[.fff]`. Rounding happens once, on the whole duration, so that it
 * carries into minutes and hours: 3599.9996 s is `1:00:00`, never `0:59:60`.
 */
export function formatHms(seconds: number, options: HmsOptions = {}): string {
  const { maxDecimals = 3, decimalSeparator = '.', hours = 'always' } = options;
  if (!Number.isFinite(seconds)) throw new RangeError(`formatHms: ${seconds} is not a duration`);
  if (!Number.isInteger(maxDecimals) || maxDecimals < 0 || maxDecimals > 3) {
    throw new RangeError(`formatHms: maxDecimals must be 0 to 3, not ${maxDecimals}`);
  }
  const scale = 10 ** maxDecimals;
  const ticks = Math.round(Math.abs(seconds) * scale);
  const sign = ticks > 0 && seconds < 0 ? '-' : '';
  const totalMinutes = Math.floor(ticks / (60 * scale));
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  const secTicks = ticks - totalMinutes * 60 * scale;
  const s = Math.floor(secTicks / scale);
  const fraction = String(secTicks - s * scale)
    .padStart(maxDecimals, '0')
    .replace(/0+$/, '');
  const ss = String(s).padStart(2, '0') + (fraction ? decimalSeparator + fraction : '');
  if (hours === 'auto' && h === 0) return `${sign}${m}:${ss}`;
  return `${sign}${h}:${String(m).padStart(2, '0')}:${ss}`;
}

/** The duration in hours, for the decimal-hours display. */
export function hoursFromSeconds(seconds: number): number {
  return seconds / 3600;
}

/** Formats seconds as decimal hours with the page's number formatter. */
export function formatHours(seconds: number, formatNumber: (value: number) => string): string {
  return formatNumber(hoursFromSeconds(seconds));
}
