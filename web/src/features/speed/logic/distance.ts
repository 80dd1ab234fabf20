// The distances the speed calculator offers, all from length.ts, and the race presets.
import type { LengthUnit } from '../../../calculator/logic/length';

export const distanceUnitIds = [
  'm', 'km', 'ft', 'yd', 'mi', 'nmi',
] as const satisfies readonly LengthUnit[];

export type DistanceUnit = (typeof distanceUnitIds)[number];

export function isDistanceUnit(u: string): u is DistanceUnit {
  return (distanceUnitIds as readonly string[]).includes(u);
}

// In metres, which is how World Athletics defines them: the marathon is 42 195 m and the half
// marathon exactly half of it, 21 097.5 m (a double holds both exactly).
export const racePresets = [
  { id: '5k', metres: 5000 },
  { id: '10k', metres: 10000 },
  { id: 'half-marathon', metres: 21097.5 },
  { id: 'marathon', metres: 42195 },
] as const;

export type RacePreset = (typeof racePresets)[number]['id'];

export function racePreset(id: string): number | undefined {
  return racePresets.find((p) => p.id === id)?.metres;
}
