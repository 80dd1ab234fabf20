// Speed, distance, time: given two, find the third. Everything is SI (m/s, m, s); units and
// number formats are the caller's, before and after.

export type Quantity = 'speed' | 'distance' | 'time';

export const quantities: readonly Quantity[] = ['speed', 'distance', 'time'];

/** What is wrong with one field. */
export type FieldError = 'required' | 'notANumber' | 'mustBePositive' | 'zeroTime';

/**
 * What is wrong with the form as a whole: three values and no choice of which to recompute,
 * fewer than two values, or a result beyond what a double holds (1e300 m at 1e-300 m/s).
 */
export type FormError = 'chooseTarget' | 'needTwo' | 'outOfRange';

export type FieldErrors = Partial<Record<Quantity, FieldError>>;

export interface SolveInput {
  speed?: number;
  distance?: number;
  time?: number;
  /** The quantity to compute. Needed when all three are filled in; its own value is ignored. */
  target?: Quantity;
}

export type Formula = 'v = d / t' | 'd = v × t' | 't = d / v';

export const formulas: Readonly<Record<Quantity, Formula>> = {
  speed: 'v = d / t',
  distance: 'd = v × t',
  time: 't = d / v',
};

/** Writes one quantity, given in SI, in the visitor's unit and number format. */
export type QuantityFormatter = (quantity: Quantity, value: number) => string;

export interface Solution {
  target: Quantity;
  speed: number;
  distance: number;
  time: number;
  formula: Formula;
  /** The formula with the values put in, e.g. `12 km/h = 5 km / 0:25:00`. */
  substituted(format: QuantityFormatter): string;
}

export type SolveResult =
  | ({ ok: true } & Solution)
  | { ok: false; fieldErrors: FieldErrors; formError?: FormError };

/** Checks one known value; time has its own message for zero. */
export function validateQuantity(quantity: Quantity, value: number): FieldError | undefined {
  if (!Number.isFinite(value)) return 'notANumber';
  if (quantity === 'time' && value === 0) return 'zeroTime';
  if (value <= 0) return 'mustBePositive';
  return undefined;
}

/**
 * Solves for the one missing quantity, or for `target` when it is given. Every field error is
 * reported at once, so the visitor sees all of them together.
 */
export function solve(input: SolveInput): SolveResult {
  const fieldErrors: FieldErrors = {};
  const given = quantities.filter((q) => input[q] !== undefined && q !== input.target);
  for (const q of given) {
    const error = validateQuantity(q, input[q] as number);
    if (error) fieldErrors[q] = error;
  }

  let target = input.target;
  let formError: FormError | undefined;
  if (target) {
    for (const q of quantities) {
      if (q !== target && input[q] === undefined) fieldErrors[q] = 'required';
    }
  } else if (given.length === 3) {
    formError = 'chooseTarget';
  } else if (given.length < 2) {
    formError = 'needTwo';
  } else {
    target = quantities.find((q) => input[q] === undefined);
  }
  if (!target || formError || Object.keys(fieldErrors).length > 0) {
    return formError ? { ok: false, fieldErrors, formError } : { ok: false, fieldErrors };
  }

  const values = compute(target, input.speed ?? 0, input.distance ?? 0, input.time ?? 0);
  const result = values[target];
  if (!Number.isFinite(result) || result <= 0) {
    return { ok: false, fieldErrors, formError: 'outOfRange' };
  }
  return {
    ok: true,
    target,
    ...values,
    formula: formulas[target],
    substituted: substitute(target, values),
  };
}

function compute(
  target: Quantity,
  speed: number,
  distance: number,
  time: number,
): Record<Quantity, number> {
  switch (target) {
    case 'speed':
      return { speed: distance / time, distance, time };
    case 'distance':
      return { speed, distance: speed * time, time };
    case 'time':
      return { speed, distance, time: distance / speed };
  }
}

function substitute(
  target: Quantity,
  { speed, distance, time }: Record<Quantity, number>,
): Solution['substituted'] {
  return (format) => {
    const v = format('speed', speed);
    const d = format('distance', distance);
    const t = format('time', time);
    switch (target) {
      case 'speed':
        return `${v} = ${d} / ${t}`;
      case 'distance':
        return `${d} = ${v} × ${t}`;
      case 'time':
        return `${t} = ${d} / ${v}`;
    }
  };
}
