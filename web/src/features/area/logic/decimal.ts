// Numbers taken as the decimals they were written as. A visitor types 0.1, 0.2 and 0.3; the
// doubles nearest them are not exactly 0.1 + 0.2 = 0.3, but the decimals are, and those are
// what was meant. The shortest string that round-trips (String(x)) recovers them.

/** x = digits × 10^exponent, for a finite x ≥ 0. */
export interface Decimal {
  readonly digits: bigint;
  readonly exponent: number;
}

export function decimalOf(x: number): Decimal {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!match) throw new RangeError(`decimalOf: ${x} is not a finite number ≥ 0`);
  const [, int, frac = '', exp = '0'] = match;
  return { digits: BigInt(int + frac), exponent: Number(exp) - frac.length };
}

/** The exact product of the decimals, rounded once to the nearest double. */
export function exactProduct(...factors: number[]): number {
  let digits = 1n;
  let exponent = 0;
  for (const f of factors) {
    const d = decimalOf(f);
    digits *= d.digits;
    exponent += d.exponent;
  }
  return Number(`${digits}e${exponent}`);
}

/** The decimals as integers over one common power of ten, so they add and compare exactly. */
export function commonScale(...xs: number[]): bigint[] {
  const ds = xs.map(decimalOf);
  const e = Math.min(...ds.map((d) => d.exponent));
  return ds.map((d) => d.digits * 10n ** BigInt(d.exponent - e));
}
