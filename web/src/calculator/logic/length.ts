// Length units with their exact definitions in metres. One place for these facts: the area
// and speed calculators both build on it. No rounded factor anywhere.
export const lengthUnits = {
  mm: 0.001,
  cm: 0.01,
  m: 1,
  km: 1000,
  in: 0.0254,
  ft: 0.3048,
  yd: 0.9144,
  mi: 1609.344,
  nmi: 1852,
} as const;

export type LengthUnit = keyof typeof lengthUnits;

export function isLengthUnit(u: string): u is LengthUnit {
  return Object.hasOwn(lengthUnits, u);
}

/** Converts a length between units through metres. */
export function convertLength(value: number, from: LengthUnit, to: LengthUnit): number {
  if (from === to) return value;
  return (value * lengthUnits[from]) / lengthUnits[to];
}
