// Each shape's area and perimeter: the formula as a template (see formula.ts) and the
// computation, side by side so that they cannot drift apart. Inputs arrive validated
// (present where required, finite, positive, in range); cross-field rules live in `check`.
import { type AngleUnit, cosine, sine, turns, versine } from './angle';
import type { FieldError } from './result';
import type { FormulaShapeId, ShapeValues } from './shapes';
import { isTriangle, triangleArea } from './triangle';

export type Template = string | Readonly<Record<AngleUnit, string>>;

export interface Outcome {
  readonly area: number;
  readonly perimeter?: number;
  /** Intermediate values the templates name, such as Heron's s. */
  readonly derived?: Readonly<Record<string, number>>;
}

export interface ShapeFormula<S extends FormulaShapeId> {
  readonly area: Template;
  /** Shown only when `compute` returns a perimeter. */
  readonly perimeter?: Template;
  readonly perimeterApproximate?: true;
  readonly check?: (v: ShapeValues<S>) => FieldError[];
  readonly compute: (v: ShapeValues<S>, unit: AngleUnit) => Outcome;
}

const π = Math.PI;

function tanDeg(d: number): number {
  return sine(d, 'deg') / cosine(d, 'deg');
}

export const formulas: { readonly [S in FormulaShapeId]: ShapeFormula<S> } = {
  square: {
    area: 'A = {s}²',
    perimeter: 'P = 4 × {s}',
    compute: ({ s }) => ({ area: s * s, perimeter: 4 * s }),
  },
  rectangle: {
    area: 'A = {l} × {w}',
    perimeter: 'P = 2 × ({l} + {w})',
    compute: ({ l, w }) => ({ area: l * w, perimeter: 2 * (l + w) }),
  },
  triangle: {
    area: 'A = ½ × {b} × {h}',
    compute: ({ b, h }) => ({ area: (b * h) / 2 }),
  },
  'triangle-sss': {
    // Shown as Heron's formula, which visitors know; computed by Kahan's (triangle.ts).
    area: 'A = √({s} × ({s} − {a}) × ({s} − {b}) × ({s} − {c})), s = ({a} + {b} + {c}) / 2',
    perimeter: 'P = {a} + {b} + {c}',
    check: ({ a, b, c }) => {
      if (isTriangle(a, b, c)) return [];
      const longest = a >= b && a >= c ? 'a' : b >= c ? 'b' : 'c';
      return [{ field: longest, code: 'triangleInequality' }];
    },
    compute: ({ a, b, c }) => ({
      area: triangleArea(a, b, c),
      perimeter: a + b + c,
      derived: { s: (a + b + c) / 2 },
    }),
  },
  'triangle-sas': {
    area: 'A = ½ × {a} × {b} × sin({angle})',
    perimeter: 'P = {a} + {b} + √({a}² + {b}² − 2 × {a} × {b} × cos({angle}))',
    compute: ({ a, b, angle }, unit) => ({
      area: (a * b * sine(angle, unit)) / 2,
      // The law of cosines as (a − b)² + 2ab(1 − cos γ): no cancellation for a thin triangle.
      perimeter: a + b + Math.sqrt((a - b) * (a - b) + 2 * a * b * versine(angle, unit)),
    }),
  },
  'right-triangle': {
    area: 'A = ½ × {a} × {b}',
    perimeter: 'P = {a} + {b} + √({a}² + {b}²)',
    compute: ({ a, b }) => ({ area: (a * b) / 2, perimeter: a + b + Math.hypot(a, b) }),
  },
  circle: {
    area: 'A = π × {r}²',
    perimeter: 'C = 2 × π × {r}',
    compute: ({ r }) => ({ area: π * r * r, perimeter: 2 * π * r }),
  },
  'circle-diameter': {
    area: 'A = π × {d}² / 4',
    perimeter: 'C = π × {d}',
    compute: ({ d }) => ({ area: (π * d * d) / 4, perimeter: π * d }),
  },
  semicircle: {
    area: 'A = π × {r}² / 2',
    perimeter: 'P = π × {r} + 2 × {r}',
    compute: ({ r }) => ({ area: (π * r * r) / 2, perimeter: π * r + 2 * r }),
  },
  'quarter-circle': {
    area: 'A = π × {r}² / 4',
    perimeter: 'P = π × {r} / 2 + 2 × {r}',
    compute: ({ r }) => ({ area: (π * r * r) / 4, perimeter: (π * r) / 2 + 2 * r }),
  },
  sector: {
    area: { deg: 'A = ({angle} / 360°) × π × {r}²', rad: 'A = ½ × {angle} × {r}²' },
    perimeter: {
      deg: 'P = 2 × {r} + ({angle} / 360°) × 2 × π × {r}',
      rad: 'P = 2 × {r} + {angle} × {r}',
    },
    compute: ({ r, angle }, unit) => {
      const t = turns(angle, unit);
      return { area: t * π * r * r, perimeter: 2 * r + t * 2 * π * r };
    },
  },
  annulus: {
    area: 'A = π × ({outer}² − {inner}²)',
    perimeter: 'P = 2 × π × ({outer} + {inner})',
    check: ({ outer, inner }) => (inner < outer ? [] : [{ field: 'inner', code: 'innerNotSmaller' }]),
    // (R − r)(R + r) rather than R² − r²: no cancellation for a thin ring.
    compute: ({ outer, inner }) => ({
      area: π * (outer - inner) * (outer + inner),
      perimeter: 2 * π * (outer + inner),
    }),
  },
  ellipse: {
    area: 'A = π × {a} × {b}',
    // Ramanujan's second approximation: exact for a circle, within 0.04 % for any ellipse
    // (the worst case, a flat one, gives 14π/11 ≈ 3.9984 times a for 4a).
    perimeter:
      'C ≈ π × ({a} + {b}) × (1 + 3 × {h} / (10 + √(4 − 3 × {h}))), h = ({a} − {b})² / ({a} + {b})²',
    perimeterApproximate: true,
    compute: ({ a, b }) => {
      const ratio = (a - b) / (a + b);
      const h = ratio * ratio;
      return {
        area: π * a * b,
        perimeter: π * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h))),
        derived: { h },
      };
    },
  },
  trapezoid: {
    area: 'A = ({a} + {b}) / 2 × {h}',
    perimeter: 'P = {a} + {b} + {c} + {d}',
    check: ({ h, c, d }) => {
      const errors: FieldError[] = [];
      if (c !== undefined && c < h) errors.push({ field: 'c', code: 'shorterThanHeight' });
      if (d !== undefined && d < h) errors.push({ field: 'd', code: 'shorterThanHeight' });
      return errors;
    },
    compute: ({ a, b, h, c, d }) => ({
      area: ((a + b) / 2) * h,
      perimeter: c !== undefined && d !== undefined ? a + b + c + d : undefined,
    }),
  },
  parallelogram: {
    area: 'A = {b} × {h}',
    compute: ({ b, h }) => ({ area: b * h }),
  },
  'parallelogram-sas': {
    area: 'A = {a} × {b} × sin({angle})',
    perimeter: 'P = 2 × ({a} + {b})',
    compute: ({ a, b, angle }, unit) => ({ area: a * b * sine(angle, unit), perimeter: 2 * (a + b) }),
  },
  rhombus: {
    area: 'A = {p} × {q} / 2',
    perimeter: 'P = 2 × √({p}² + {q}²)',
    compute: ({ p, q }) => ({ area: (p * q) / 2, perimeter: 2 * Math.hypot(p, q) }),
  },
  'rhombus-side-angle': {
    area: 'A = {s}² × sin({angle})',
    perimeter: 'P = 4 × {s}',
    compute: ({ s, angle }, unit) => ({ area: s * s * sine(angle, unit), perimeter: 4 * s }),
  },
  kite: {
    area: 'A = {p} × {q} / 2',
    perimeter: 'P = 2 × ({a} + {b})',
    compute: ({ p, q, a, b }) => ({
      area: (p * q) / 2,
      perimeter: a !== undefined && b !== undefined ? 2 * (a + b) : undefined,
    }),
  },
  'regular-polygon': {
    area: 'A = {n} × {s}² / (4 × tan(π / {n}))',
    perimeter: 'P = {n} × {s}',
    // tan(180° / n) in degrees is exact where it can be: 1 for the square, √3 for the triangle.
    compute: ({ n, s }) => ({ area: (n * s * s) / (4 * tanDeg(180 / n)), perimeter: n * s }),
  },
};
