// Average speed over several legs: total distance over total time. The mean of the leg speeds
// is returned too, because it is the answer people expect and the page shows why it is wrong:
// it weights every leg alike, while a slow leg lasts longer. With equal times the two agree;
// with equal distances the average speed is the harmonic mean of the speeds.
import { solve, type FieldError, type FormError, type Quantity } from './solve';

/**
 * Two of the three, as in the calculator: distance and time, speed and time, or distance and
 * speed.
 */
export interface LegInput {
  distance?: number;
  speed?: number;
  time?: number;
}

/** One leg with all three quantities, in SI. */
export interface Leg {
  distance: number;
  speed: number;
  time: number;
}

/** An error in the leg at index `leg` (0-based), at `field` when it belongs to one. */
export interface LegError {
  leg: number;
  field?: Quantity;
  error: FieldError | FormError;
}

export interface LegsSummary {
  legs: Leg[];
  totalDistance: number;
  totalTime: number;
  /** Total distance / total time: the average speed. */
  averageSpeed: number;
  /** The arithmetic mean of the leg speeds: what the average speed is not, in general. */
  meanOfSpeeds: number;
  /** n / Σ(1/vᵢ): the average speed when every leg has the same distance. */
  harmonicMeanOfSpeeds: number;
  /** Every leg has the same distance, so the average speed is the harmonic mean. */
  equalDistances: boolean;
  /** Every leg lasts as long, so the average speed is the arithmetic mean. */
  equalTimes: boolean;
}

export type LegsResult =
  | ({ ok: true } & LegsSummary)
  | { ok: false; errors: LegError[]; formError?: 'noLegs' | 'outOfRange' };

// Derived distances and times carry rounding (30 km/h × 2 h is not always 60 000 m to the last
// bit), so "equal" means equal to twelve significant digits.
const EQUAL_TOLERANCE = 1e-12;

export function averageOverLegs(inputs: readonly LegInput[]): LegsResult {
  if (inputs.length === 0) return { ok: false, errors: [], formError: 'noLegs' };

  const legs: Leg[] = [];
  const errors: LegError[] = [];
  inputs.forEach((input, leg) => {
    const r = solve(input);
    if (r.ok) {
      legs.push({ distance: r.distance, speed: r.speed, time: r.time });
      return;
    }
    for (const [field, error] of Object.entries(r.fieldErrors) as [Quantity, FieldError][]) {
      errors.push({ leg, field, error });
    }
    if (r.formError) errors.push({ leg, error: r.formError });
  });
  if (errors.length > 0) return { ok: false, errors };

  const n = legs.length;
  const totalDistance = sum(legs.map((l) => l.distance));
  const totalTime = sum(legs.map((l) => l.time));
  const summary: LegsSummary = {
    legs,
    totalDistance,
    totalTime,
    averageSpeed: totalDistance / totalTime,
    // Dividing before adding keeps the mean finite wherever the speeds are.
    meanOfSpeeds: sum(legs.map((l) => l.speed / n)),
    harmonicMeanOfSpeeds: n / sum(legs.map((l) => 1 / l.speed)),
    equalDistances: allEqual(legs.map((l) => l.distance)),
    equalTimes: allEqual(legs.map((l) => l.time)),
  };
  const numbers = [totalDistance, totalTime, summary.averageSpeed, summary.meanOfSpeeds];
  if (!numbers.concat(summary.harmonicMeanOfSpeeds).every((x) => Number.isFinite(x) && x > 0)) {
    return { ok: false, errors: [], formError: 'outOfRange' };
  }
  return { ok: true, ...summary };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function allEqual(values: number[]): boolean {
  const first = values[0];
  return values.every((v) => Math.abs(v - first) <= EQUAL_TOLERANCE * Math.max(v, first));
}
