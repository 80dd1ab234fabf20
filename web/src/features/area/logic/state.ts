// The area calculator's form: what the visitor typed and chose, and how it sits in the query
// string (`?shape=circle&unit=cm&r=5`). Field texts are kept for every shape, so switching from
// a circle to a semicircle keeps the radius; only the current shape's fields go in the link.
import { angleUnits, type AngleUnit } from './angle';
import { shapes, shapeSpec, type ShapeId } from './shapes';
import { areaUnitIds, type AreaUnit } from './units';
import { lengthUnits, type LengthUnit } from '../../../calculator/logic/length';
import { decimalSeparator, parseNumber } from '../../../lib/number';
import { parseVertices } from './polygon';
import { buildSearch, fromParam, pick, toParam, type QueryCodec } from '../../../lib/query';
import { defaultPrecision, precisionChoices, type Precision } from '../../../calculator/logic/precision';

export interface AreaForm {
  shape: ShapeId;
  unit: LengthUnit;
  angleUnit: AngleUnit;
  /** The unit the area is shown in; '' for the square of the length unit. */
  areaUnit: AreaUnit | '';
  precision: Precision;
  /** Field texts by field id, as typed. */
  texts: Readonly<Record<string, string>>;
}

const shapeIds = shapes.map((s) => s.id);
const lengthUnitIds = Object.keys(lengthUnits) as LengthUnit[];

export const defaultForm: AreaForm = {
  shape: 'rectangle',
  unit: 'm',
  angleUnit: 'deg',
  areaUnit: '',
  precision: defaultPrecision,
  texts: {},
};

export function areaCodec(lang: string): QueryCodec<AreaForm> {
  return {
    decode(params) {
      const shape = pick(params, 'shape', shapeIds, defaultForm.shape);
      const texts: Record<string, string> = {};
      for (const f of shapeSpec(shape).fields) {
        const v = params.get(f.id);
        if (v !== null) texts[f.id] = f.kind === 'vertices' ? verticesFromParam(v, lang) : fromParam(v, lang);
      }
      return {
        shape,
        unit: pick(params, 'unit', lengthUnitIds, defaultForm.unit),
        angleUnit: pick(params, 'angle', angleUnits, defaultForm.angleUnit),
        areaUnit: pick<AreaUnit | ''>(params, 'in', areaUnitIds, ''),
        precision: pick(params, 'dp', precisionChoices, defaultPrecision),
        texts,
      };
    },
    encode(form) {
      const spec = shapeSpec(form.shape);
      return buildSearch([
        ['shape', form.shape, defaultForm.shape],
        ['unit', form.unit, defaultForm.unit],
        ...(spec.fields.some((f) => f.kind === 'angle') ? [['angle', form.angleUnit, defaultForm.angleUnit] as const] : []),
        ...spec.fields.map((f) => {
          const text = form.texts[f.id] ?? '';
          return [f.id, f.kind === 'vertices' ? verticesToParam(text, lang) : toParam(text, lang)] as const;
        }),
        ['in', form.areaUnit],
        ['dp', form.precision, defaultPrecision],
      ]);
    },
  };
}

// Vertices travel as `x,y;x,y` in JavaScript notation, like any other number; a list with a
// line that is not a point stays as typed, so nothing is lost.
function verticesToParam(text: string, lang: string): string {
  const parsed = parseVertices(text, numberIn(lang));
  return parsed.ok ? parsed.vertices.map((p) => `${p.x},${p.y}`).join(';') : text.trim();
}

function verticesFromParam(param: string, lang: string): string {
  if (!/^[-\d.e+,;]+$/.test(param)) return param;
  // Where the comma is the decimal separator, a semicolon separates x from y.
  const sep = decimalSeparator(lang) === ',' ? '; ' : ', ';
  return param
    .split(';')
    .map((point) => point.split(',').map((n) => fromParam(n, lang)).join(sep))
    .join('\n');
}

/** parseNumber for one language, in the form the area modules take. */
export const numberIn = (lang: string) => (text: string) => {
  const n = parseNumber(text, lang);
  return n.ok ? n.value : undefined;
};
