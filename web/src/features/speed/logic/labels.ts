// Options of the unit selects and the wording of field errors, shared by both parts.
import type { TFunction } from '../../../i18n/translator';
import { formatNumber } from '../../../lib/number';
import { distanceUnitIds } from './distance';
import { isPaceUnit } from './pace';
import type { TimeFormat } from './time';
import type { SpeedFieldError } from './calculate';
import { unitSymbol } from './format';
import { speedOrPaceUnitIds, timeFormats, type SpeedOrPaceUnit } from './state';

type T = TFunction<'speed'>;

/** "kilometres per hour (km/h)"; Mach is named in words only. */
export function speedUnitLabel(t: T, unit: SpeedOrPaceUnit): string {
  return unit === 'mach' ? t('speedUnits.mach') : `${t(`speedUnits.${unit}`)} (${unitSymbol(unit)})`;
}

export const speedUnitOptions = (t: T) => speedOrPaceUnitIds.map((u) => ({ value: u, label: speedUnitLabel(t, u) }));

export const distanceUnitOptions = (t: T) => distanceUnitIds.map((u) => ({ value: u, label: `${t(`calculator:units.${u}`)} (${u})` }));

export const timeFormatOptions = (t: T) => timeFormats.map((f) => ({ value: f, label: t(`timeFormats.${f}`) }));

/** What a time or pace field looks like, for hints and error messages. */
export type TimeKind = TimeFormat | 'pace';

export const timeKindOf = (unit: SpeedOrPaceUnit): TimeKind | undefined => (isPaceUnit(unit) ? 'pace' : undefined);

export function timeExample(kind: TimeKind, lang: string): string {
  return kind === 'pace' ? '5:00' : kind === 'hms' ? '1:30:00' : formatNumber(1.5, lang);
}

export function timeHint(t: T, kind: TimeKind, lang: string): string {
  return kind === 'hours' ? t('hints.hours', { example: timeExample(kind, lang) }) : t(`hints.${kind}`);
}

/** The message a field shows; `kind` is set for fields typed as a time or a pace. */
export function fieldMessage(t: T, error: SpeedFieldError | undefined, lang: string, kind?: TimeKind): string | undefined {
  switch (error) {
    case undefined:
      return undefined;
    case 'notANumber':
      return t('calculator:errors.notANumber', { example: formatNumber(1.5, lang) });
    case 'mustBePositive':
      return t('calculator:errors.mustBePositive');
    case 'notATime':
      return t('errors.notATime', { example: timeExample(kind ?? 'hms', lang) });
    default:
      return t(`errors.${error}`);
  }
}
