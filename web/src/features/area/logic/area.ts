// The area calculator's entry point for every shape given by numbers: validate each field
// against the shape table, check the rules between fields, compute, and refuse anything that
// is not a finite positive area. The polygon, given by vertices, is in polygon.ts.
import { type AngleUnit, inAngleRange } from './angle';
import { fill } from './formula';
import { formulas, type Outcome, type Template } from './formulas';
import { type AreaResult, type FieldError, type Formatter, RESULT_FIELD } from './result';
import { type FieldSpec, type FormulaShapeId, shapeSpec } from './shapes';

/** Field values by field id; absent means not entered. Extra keys are ignored. */
export type AreaInputs = Readonly<Record<string, number | undefined>>;

export interface AreaOptions {
  /** The unit of every angle field; degrees unless said otherwise. */
  readonly angleUnit?: AngleUnit;
}

// The per-shape types meet the loose input here, once: validate() has checked every field the
// table lists, which is exactly what ShapeValues<S> promises.
interface LooseFormula {
  readonly area: Template;
  readonly perimeter?: Template;
  readonly perimeterApproximate?: true;
  readonly check?: (v: AreaInputs) => FieldError[];
  readonly compute: (v: AreaInputs, unit: AngleUnit) => Outcome;
}

export function computeArea(shape: FormulaShapeId, inputs: AreaInputs, options: AreaOptions = {}): AreaResult {
  const unit = options.angleUnit ?? 'deg';
  const fields = shapeSpec(shape).fields as readonly FieldSpec[];
  const formula = formulas[shape] as unknown as LooseFormula;

  const errors = fields.flatMap((f) => validateField(f, inputs[f.id], unit));
  if (errors.length > 0) return { ok: false, errors };
  const values: AreaInputs = Object.fromEntries(fields.map((f) => [f.id, inputs[f.id]]));
  const crossErrors = formula.check?.(values) ?? [];
  if (crossErrors.length > 0) return { ok: false, errors: crossErrors };

  const { area, perimeter, derived = {} } = formula.compute(values, unit);
  // Valid inputs can still overflow (a side of 1e200) or underflow (1e-200) the doubles.
  if (!(Number.isFinite(area) && area > 0) || (perimeter !== undefined && !Number.isFinite(perimeter))) {
    return { ok: false, errors: [{ field: RESULT_FIELD, code: 'outOfRange' }] };
  }

  const symbols = (name: string) => {
    const spec = fields.find((f) => f.id === name);
    return spec && 'symbol' in spec ? spec.symbol : name;
  };
  const valueText = (fmt: Formatter) => (name: string) => {
    const spec = fields.find((f) => f.id === name);
    const v = values[name] ?? derived[name];
    if (v === undefined) throw new Error(`formula for ${shape} names unknown value ${name}`);
    return spec?.kind === 'angle' && unit === 'deg' ? `${fmt(v)}°` : fmt(v);
  };
  const pick = (t: Template) => (typeof t === 'string' ? t : t[unit]);
  const areaTemplate = pick(formula.area);
  const perimeterTemplate = perimeter !== undefined && formula.perimeter ? pick(formula.perimeter) : undefined;

  return {
    ok: true,
    area,
    formula: fill(areaTemplate, symbols),
    substituted: (fmt) => fill(areaTemplate, valueText(fmt)),
    ...(perimeterTemplate !== undefined && {
      perimeter,
      perimeterFormula: fill(perimeterTemplate, symbols),
      substitutedPerimeter: (fmt: Formatter) => fill(perimeterTemplate, valueText(fmt)),
      ...(formula.perimeterApproximate && { perimeterApproximate: true }),
    }),
  };
}

function validateField(f: FieldSpec, v: number | undefined, unit: AngleUnit): FieldError[] {
  const error = (code: FieldError['code']): FieldError[] => [{ field: f.id, code }];
  if (f.kind === 'vertices') return error('required'); // not a number field; see polygon.ts
  if (v === undefined) return f.kind === 'length' && f.optional ? [] : error('required');
  if (!Number.isFinite(v)) return error('notANumber');
  switch (f.kind) {
    case 'length':
      return v > 0 ? [] : error('mustBePositive');
    case 'count':
      if (!Number.isInteger(v)) return error('mustBeInteger');
      return v >= f.min ? [] : error('tooFewSides');
    case 'angle':
      return inAngleRange(v, unit, f.range) ? [] : error('angleRange');
  }
}
