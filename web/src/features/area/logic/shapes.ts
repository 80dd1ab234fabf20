// The one table of the area calculator's shapes and their fields. A form, a diagram, the query
// string and the calculation all read it; nothing else lists which fields a shape has.

/** (0°, 180°) exclusive, or (0°, 360°] — the angle's allowed interval, in either unit. */
export type AngleRange = 'below180' | 'upTo360';

export type FieldSpec =
  | { readonly kind: 'length'; readonly id: string; readonly symbol: string; readonly optional?: true }
  | { readonly kind: 'angle'; readonly id: string; readonly symbol: string; readonly range: AngleRange }
  | { readonly kind: 'count'; readonly id: string; readonly symbol: string; readonly min: number }
  | { readonly kind: 'vertices'; readonly id: string };

export type FieldKind = FieldSpec['kind'];

export interface ShapeSpec {
  /** Stable and URL-safe: it is the `shape` value in the query string. */
  readonly id: string;
  /** Variants of one figure (a triangle by sides, by base and height…) share a family. */
  readonly family: string;
  readonly fields: readonly FieldSpec[];
}

const len = <I extends string, S extends string>(id: I, symbol: S) =>
  ({ kind: 'length', id, symbol }) as const;
const optLen = <I extends string, S extends string>(id: I, symbol: S) =>
  ({ kind: 'length', id, symbol, optional: true }) as const;
const angle = <I extends string, S extends string, R extends AngleRange>(id: I, symbol: S, range: R) =>
  ({ kind: 'angle', id, symbol, range }) as const;

export const shapes = [
  { id: 'square', family: 'square', fields: [len('s', 's')] },
  { id: 'rectangle', family: 'rectangle', fields: [len('l', 'l'), len('w', 'w')] },
  { id: 'triangle', family: 'triangle', fields: [len('b', 'b'), len('h', 'h')] },
  { id: 'triangle-sss', family: 'triangle', fields: [len('a', 'a'), len('b', 'b'), len('c', 'c')] },
  {
    id: 'triangle-sas',
    family: 'triangle',
    fields: [len('a', 'a'), len('b', 'b'), angle('angle', 'γ', 'below180')],
  },
  { id: 'right-triangle', family: 'right-triangle', fields: [len('a', 'a'), len('b', 'b')] },
  { id: 'circle', family: 'circle', fields: [len('r', 'r')] },
  { id: 'circle-diameter', family: 'circle', fields: [len('d', 'd')] },
  { id: 'semicircle', family: 'semicircle', fields: [len('r', 'r')] },
  { id: 'quarter-circle', family: 'quarter-circle', fields: [len('r', 'r')] },
  { id: 'sector', family: 'sector', fields: [len('r', 'r'), angle('angle', 'θ', 'upTo360')] },
  { id: 'annulus', family: 'annulus', fields: [len('outer', 'R'), len('inner', 'r')] },
  { id: 'ellipse', family: 'ellipse', fields: [len('a', 'a'), len('b', 'b')] },
  {
    id: 'trapezoid',
    family: 'trapezoid',
    fields: [len('a', 'a'), len('b', 'b'), len('h', 'h'), optLen('c', 'c'), optLen('d', 'd')],
  },
  { id: 'parallelogram', family: 'parallelogram', fields: [len('b', 'b'), len('h', 'h')] },
  {
    id: 'parallelogram-sas',
    family: 'parallelogram',
    fields: [len('a', 'a'), len('b', 'b'), angle('angle', 'α', 'below180')],
  },
  { id: 'rhombus', family: 'rhombus', fields: [len('p', 'p'), len('q', 'q')] },
  { id: 'rhombus-side-angle', family: 'rhombus', fields: [len('s', 's'), angle('angle', 'α', 'below180')] },
  {
    id: 'kite',
    family: 'kite',
    fields: [len('p', 'p'), len('q', 'q'), optLen('a', 'a'), optLen('b', 'b')],
  },
  {
    id: 'regular-polygon',
    family: 'regular-polygon',
    fields: [{ kind: 'count', id: 'n', symbol: 'n', min: 3 }, len('s', 's')],
  },
  { id: 'polygon', family: 'polygon', fields: [{ kind: 'vertices', id: 'vertices' }] },
] as const satisfies readonly ShapeSpec[];

export type Shape = (typeof shapes)[number];
export type ShapeId = Shape['id'];
/** Every shape whose inputs are numbers; the polygon's input is a list of vertices. */
export type FormulaShapeId = Exclude<ShapeId, 'polygon'>;

type ShapeFields<S extends ShapeId> = Extract<Shape, { id: S }>['fields'][number];

/** The validated numbers of one shape, keyed by field id; optional fields may be absent. */
export type ShapeValues<S extends FormulaShapeId> = {
  readonly [F in ShapeFields<S> as F['id']]: F extends { optional: true } ? number | undefined : number;
};

const byId = new Map<string, Shape>(shapes.map((s) => [s.id, s]));

export function isShapeId(id: string): id is ShapeId {
  return byId.has(id);
}

export function shapeSpec(id: ShapeId): Shape {
  return byId.get(id)!;
}
