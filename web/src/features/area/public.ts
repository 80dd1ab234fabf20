// What other features may use of the area calculator (the account's preferences panel): its
// query codec, which reads saved preferences as the calculator does, and its units.
export { areaCodec } from './logic/state';
export { areaUnitIds, areaUnitSymbols, type AreaUnit } from './logic/units';
