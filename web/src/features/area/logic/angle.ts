// Angles as the visitor typed them, in degrees or radians. Working in degrees where the input
// is in degrees lets the common angles come out exact: sin 30° is 0.5 and sin 90° is 1, where
// Math.sin(Math.PI / 6) is 0.49999999999999994.
import type { AngleRange } from './shapes';

export type AngleUnit = 'deg' | 'rad';

export const angleUnits: readonly AngleUnit[] = ['deg', 'rad'];

export function isAngleUnit(u: string): u is AngleUnit {
  return u === 'deg' || u === 'rad';
}

/** Whether x lies in the interval the field allows: (0, 180°) or (0, 360°]. */
export function inAngleRange(x: number, unit: AngleUnit, range: AngleRange): boolean {
  const halfTurn = unit === 'deg' ? 180 : Math.PI;
  return range === 'below180' ? x > 0 && x < halfTurn : x > 0 && x <= 2 * halfTurn;
}

/** The angle as a fraction of a full turn. */
export function turns(x: number, unit: AngleUnit): number {
  return unit === 'deg' ? x / 360 : x / (2 * Math.PI);
}

export function sine(x: number, unit: AngleUnit): number {
  return unit === 'deg' ? sinDeg(x) : Math.sin(x);
}

export function cosine(x: number, unit: AngleUnit): number {
  return unit === 'deg' ? sinDeg(90 - x) : Math.cos(x);
}

/**
 * 1 − cos x without the cancellation that ruins it for small angles: the law of cosines needs
 * it for a thin triangle's third side.
 */
export function versine(x: number, unit: AngleUnit): number {
  const c = cosine(x, unit);
  if (c <= 0.5) return 1 - c;
  const s = sine(x / 2, unit);
  return 2 * s * s;
}

/** sin of an angle in degrees, exact at multiples of 30° and 90°. */
function sinDeg(d: number): number {
  let r = d % 360;
  if (r < 0) r += 360;
  let sign = 1;
  if (r >= 180) {
    r -= 180;
    sign = -1;
  }
  if (r > 90) r = 180 - r;
  // r is now the reference angle in [0°, 90°].
  if (r === 0) return 0;
  if (r === 30) return sign * 0.5;
  if (r === 90) return sign;
  return sign * Math.sin((r * Math.PI) / 180);
}
