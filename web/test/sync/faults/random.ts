// A seeded random source (mulberry32): the same seed gives the same script of operations and
// faults, so that a failing seed can be run again.

export interface Random {
  /** A number in [0, 1). */
  (): number;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An independent source, derived from this one. */
  fork(): Random;
}

export function seeded(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = next as Random;
  r.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  r.chance = (p) => next() < p;
  r.pick = (items) => items[Math.floor(next() * items.length)];
  r.fork = () => seeded(Math.floor(next() * 4294967296));
  return r;
}
