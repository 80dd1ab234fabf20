// What the rest of the front end may use of the speed calculator: the calculator itself (its
// island, app/islands/speed.tsx), and for the account's preferences panel its query codec, which
// reads saved preferences as the calculator does, and its units as options.
export { distanceUnitOptions, speedUnitOptions } from './logic/labels';
export type { DistanceUnit } from './logic/distance';
export { speedCodec, type SpeedOrPaceUnit } from './logic/state';
export { SpeedCalculator } from './SpeedCalculator';
