// Area units in square metres, built from the exact length definitions in length.ts.
import { type LengthUnit, lengthUnits as m } from '../../../calculator/logic/length';
import { exactProduct } from './decimal';

// Products of decimal definitions are done on the decimals and rounded once: in doubles,
// 43560 × 0.3048 × 0.3048 is 4046.8564224000006, not the acre's exact 4046.8564224.

export const areaUnits = {
  mm2: exactProduct(m.mm, m.mm),
  cm2: exactProduct(m.cm, m.cm),
  m2: 1,
  km2: exactProduct(m.km, m.km),
  ha: 10_000,
  in2: exactProduct(m.in, m.in),
  ft2: exactProduct(m.ft, m.ft),
  yd2: exactProduct(m.yd, m.yd),
  // The international acre is 43 560 ft², that is 4046.8564224 m²; a square mile is 640 acres.
  acre: exactProduct(43_560, m.ft, m.ft),
  mi2: exactProduct(m.mi, m.mi),
  nmi2: exactProduct(m.nmi, m.nmi),
} as const;

export type AreaUnit = keyof typeof areaUnits;

/** Every area unit, in the order a results table lists them. */
export const areaUnitIds = Object.keys(areaUnits) as AreaUnit[];

/** Standard symbols; they are the same in every language. */
export const areaUnitSymbols: Readonly<Record<AreaUnit, string>> = {
  mm2: 'mm²',
  cm2: 'cm²',
  m2: 'm²',
  km2: 'km²',
  ha: 'ha',
  in2: 'in²',
  ft2: 'ft²',
  yd2: 'yd²',
  acre: 'ac',
  mi2: 'mi²',
  nmi2: 'nmi²',
};

const squares: Readonly<Record<LengthUnit, AreaUnit>> = {
  mm: 'mm2',
  cm: 'cm2',
  m: 'm2',
  km: 'km2',
  in: 'in2',
  ft: 'ft2',
  yd: 'yd2',
  mi: 'mi2',
  nmi: 'nmi2',
};

/** The square unit an area comes out in when its lengths are in `unit`. */
export function squareOf(unit: LengthUnit): AreaUnit {
  return squares[unit];
}

export function isAreaUnit(u: string): u is AreaUnit {
  return Object.hasOwn(areaUnits, u);
}

/**
 * Converts an area between units through square metres, like convertLength: a value already
 * in the target unit comes back untouched rather than through a multiply and a divide.
 */
export function convertArea(value: number, from: AreaUnit, to: AreaUnit): number {
  if (from === to) return value;
  return (value * areaUnits[from]) / areaUnits[to];
}
