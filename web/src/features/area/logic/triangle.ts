// A triangle's area from its three sides. Heron's formula as usually written,
// √(s(s−a)(s−b)(s−c)), loses most of its digits on a needle-like triangle because s − a
// cancels; Kahan's arrangement of the same product keeps them ("Miscalculating Area and Angles
// of a Needle-like Triangle", 2014).
import { commonScale } from './decimal';

function sortDescending(a: number, b: number, c: number): [number, number, number] {
  return [a, b, c].sort((x, y) => y - x) as [number, number, number];
}

/**
 * Whether the sides make a triangle with a positive area; a = b + c (degenerate) does not.
 * The test is exact twice over. On the decimals as typed, so that 0.3, 0.2, 0.1 is
 * degenerate although the double nearest 0.3 is less than those nearest 0.1 and 0.2 added.
 * And on the doubles, where for sorted sides a − b is exact whenever the triangle is valid
 * (b > a / 2, Sterbenz), so that Kahan's product is positive.
 */
export function isTriangle(a: number, b: number, c: number): boolean {
  const [x, y, z] = sortDescending(a, b, c);
  const [dx, dy, dz] = commonScale(x, y, z) as [bigint, bigint, bigint];
  return dy + dz > dx && z - (x - y) > 0;
}

/** The area of a valid triangle (see isTriangle) by Kahan's formula. */
export function triangleArea(a: number, b: number, c: number): number {
  const [x, y, z] = sortDescending(a, b, c);
  // Scaling by a power of two is exact and keeps the fourth-degree product from overflowing
  // (or underflowing) long before the area itself would.
  const k = 2 ** Math.floor(Math.log2(x));
  const [p, q, r] = [x / k, y / k, z / k];
  const product = (p + (q + r)) * (r - (p - q)) * (r + (p - q)) * (p + (q - r));
  return (Math.sqrt(product) / 4) * k * k;
}
