// What the rest of the front end may use of the area calculator: the calculator itself (its
// island, app/islands/area.tsx), and for the account's preferences panel its query codec, which
// reads saved preferences as the calculator does, and its units.
export { areaCodec } from './logic/state';
export { areaUnitIds, areaUnitSymbols, type AreaUnit } from './logic/units';
export { AreaCalculator } from './AreaCalculator';
