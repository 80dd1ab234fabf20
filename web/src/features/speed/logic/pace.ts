// Pace is the reciprocal of speed: a duration per distance. Its value is a number of seconds,
// shown as m:ss by formatHms; "min/km" names how it is displayed, not a factor of minutes.
import { lengthUnits } from '../../../calculator/logic/length';

export const paceUnits = {
  'min-km': lengthUnits.km,
  'min-mi': lengthUnits.mi,
} as const;

export type PaceUnit = keyof typeof paceUnits;

export const paceUnitIds: readonly PaceUnit[] = ['min-km', 'min-mi'];

export const paceUnitSymbols: Readonly<Record<PaceUnit, string>> = {
  'min-km': 'min/km',
  'min-mi': 'min/mi',
};

export function isPaceUnit(u: string): u is PaceUnit {
  return Object.hasOwn(paceUnits, u);
}

/** Seconds needed per km or per mile at `metresPerSecond` (which must be positive). */
export function paceFromSpeed(metresPerSecond: number, unit: PaceUnit): number {
  return paceUnits[unit] / metresPerSecond;
}

/** Metres per second for a pace of `secondsPerUnit` seconds per km or per mile (positive). */
export function speedFromPace(secondsPerUnit: number, unit: PaceUnit): number {
  return paceUnits[unit] / secondsPerUnit;
}

/** The pace in every pace unit, in display order. */
export function paceInEveryUnit(metresPerSecond: number): { unit: PaceUnit; seconds: number }[] {
  return paceUnitIds.map((unit) => ({ unit, seconds: paceFromSpeed(metresPerSecond, unit) }));
}
