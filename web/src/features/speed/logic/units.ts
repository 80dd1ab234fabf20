// Speed units as exact ratios: a length from length.ts over a number of seconds. Keeping the
// two apart (instead of one pre-divided factor) lets 100 km/h become 100 × 1000 / 3600, which
// rounds once, to the same double as 1000 / 36.
import { lengthUnits } from '../../../calculator/logic/length';

/**
 * The ISA (ICAO standard atmosphere) speed of sound at sea level, 15 °C (288.15 K):
 * a₀ = 340.294 m/s, ICAO Doc 7488/3 and the U.S. Standard Atmosphere 1976. It is the tabulated
 * value of √(γ·R·T₀), so "Mach" here means Mach at sea level on a standard day, never at
 * altitude.
 */
export const SPEED_OF_SOUND_SEA_LEVEL = 340.294;

interface Ratio {
  readonly metres: number;
  readonly seconds: number;
}

// Ids are URL-safe because the inputs live in the query string ('km-h' reads as km/h).
export const speedUnits = {
  'km-h': { metres: lengthUnits.km, seconds: 3600 },
  mph: { metres: lengthUnits.mi, seconds: 3600 },
  'm-s': { metres: lengthUnits.m, seconds: 1 },
  'ft-s': { metres: lengthUnits.ft, seconds: 1 },
  kn: { metres: lengthUnits.nmi, seconds: 3600 },
  mach: { metres: SPEED_OF_SOUND_SEA_LEVEL, seconds: 1 },
} as const satisfies Record<string, Ratio>;

export type SpeedUnit = keyof typeof speedUnits;

/** Display order of the "result in every unit" table. */
export const speedUnitIds: readonly SpeedUnit[] = ['km-h', 'mph', 'm-s', 'ft-s', 'kn', 'mach'];

/**
 * Standard symbols, the same in every language. Mach has no unit symbol; "Ma" is the ISO 80000-11
 * symbol of the Mach number, and the page labels it "Mach (sea level, 15 °C)" in words.
 */
export const speedUnitSymbols: Readonly<Record<SpeedUnit, string>> = {
  'km-h': 'km/h',
  mph: 'mph',
  'm-s': 'm/s',
  'ft-s': 'ft/s',
  kn: 'kn',
  mach: 'Ma',
};

export function isSpeedUnit(u: string): u is SpeedUnit {
  return Object.hasOwn(speedUnits, u);
}

/** Converts a speed in `unit` to metres per second. */
export function toMetresPerSecond(value: number, unit: SpeedUnit): number {
  const { metres, seconds } = speedUnits[unit];
  return (value * metres) / seconds;
}

/** Converts a speed in metres per second to `unit`. */
export function speedIn(metresPerSecond: number, unit: SpeedUnit): number {
  const { metres, seconds } = speedUnits[unit];
  return (metresPerSecond * seconds) / metres;
}

/** Converts a speed between two units. */
export function convertSpeed(value: number, from: SpeedUnit, to: SpeedUnit): number {
  if (from === to) return value;
  // One fraction, so that whole-number factors meet before anything is rounded: 1 kn is
  // 1852 × 3600 / (3600 × 1000) = 1.852 km/h exactly, where going through m/s is off by an ulp.
  const a = speedUnits[from];
  const b = speedUnits[to];
  return (value * a.metres * b.seconds) / (a.seconds * b.metres);
}

/** The speed in every unit, in display order: the rows of the result table. */
export function speedInEveryUnit(
  metresPerSecond: number,
): { unit: SpeedUnit; value: number }[] {
  return speedUnitIds.map((unit) => ({ unit, value: speedIn(metresPerSecond, unit) }));
}
