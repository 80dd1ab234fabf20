// Results as text, in the page's number notation, rounded for display only. Unit symbols are
// the standard ones in every language; Mach is written before its number, as it is read.
import { decimalSeparator, formatNumber } from '../../../lib/number';
import { isPaceUnit, paceUnitSymbols, type PaceUnit } from './pace';
import { formatHms, type TimeFormat } from './time';
import { speedUnitSymbols, type SpeedUnit } from './units';
import type { DistanceUnit } from './distance';
import { distanceIn, paceOf, speedInUnit, type Ratio } from './calculate';
import type { SpeedOrPaceUnit } from './state';

/** The speed unit that goes with a pace unit, for formulas and averages. */
export const speedUnitOfPace: Readonly<Record<PaceUnit, SpeedUnit>> = { 'min-km': 'km-h', 'min-mi': 'mph' };

export function unitSymbol(unit: SpeedOrPaceUnit): string {
  return isPaceUnit(unit) ? paceUnitSymbols[unit] : unit === 'mach' ? 'Mach' : speedUnitSymbols[unit];
}

export type Formatter = ReturnType<typeof formatter>;

export function formatter(lang: string, precision: number) {
  const num = (n: number) => formatNumber(n, lang, { maxDecimals: precision });
  const hours = (seconds: number) => `${num(seconds / 3600)} h`;
  /** h:mm:ss (or m:ss), falling back to hours or seconds where a clock would mislead. */
  const clock = (seconds: number, h: 'always' | 'auto' = 'always') => {
    if (!(seconds < 1e12)) return hours(seconds);
    const maxDecimals = Math.min(3, precision);
    if (Math.round(seconds * 10 ** maxDecimals) === 0) return `${num(seconds)} s`;
    return formatHms(seconds, { maxDecimals, decimalSeparator: decimalSeparator(lang), hours: h });
  };
  const speedValue = (speed: Ratio, unit: SpeedOrPaceUnit) =>
    isPaceUnit(unit) ? clock(paceOf(speed, unit), 'auto') : num(speedInUnit(speed, unit));
  return {
    num,
    clock,
    hours,
    /** The number alone, for a field that shows a computed speed in its unit. */
    speedValue,
    /** `60 km/h`, `Mach 0.05`, `5:00 min/km`. */
    speed(speed: Ratio, unit: SpeedOrPaceUnit): string {
      const value = speedValue(speed, unit);
      return unit === 'mach' ? `Mach ${value}` : `${value} ${unitSymbol(unit)}`;
    },
    distanceValue: (metres: number, unit: DistanceUnit) => num(distanceIn(metres, unit)),
    distance: (metres: number, unit: DistanceUnit) => `${num(distanceIn(metres, unit))} ${unit}`,
    /** The number alone, as the time field is written. */
    timeValue: (seconds: number, format: TimeFormat) => (format === 'hms' ? clock(seconds) : num(seconds / 3600)),
    /** `2:30:00` or `2.5 h`, in the visitor's format. */
    time: (seconds: number, format: TimeFormat) => (format === 'hms' ? clock(seconds) : hours(seconds)),
    /** Both ways: `2:30:00 (2.5 h)`, the visitor's format first. */
    timeBoth: (seconds: number, format: TimeFormat) =>
      !(seconds < 1e12) ? hours(seconds) : format === 'hms' ? `${clock(seconds)} (${hours(seconds)})` : `${hours(seconds)} (${clock(seconds)})`,
  };
}
