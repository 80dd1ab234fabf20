// An irregular polygon from a pasted list of vertices: the text is parsed line by line, the
// polygon must be simple (no edge crossing or touching another), and its area comes from the
// shoelace formula.
import { fill } from './formula';
import type { AreaResult, FieldError, Formatter } from './result';
import { RESULT_FIELD } from './result';

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Reads one number as the page's language writes it; undefined if it is not one. */
export type ParseNumber = (text: string) => number | undefined;

export type VerticesResult =
  | { readonly ok: true; readonly vertices: readonly Point[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

const FIELD = 'vertices';

// Tried in order. The comma comes before whitespace so that "1, 2" is two numbers, and after
// ; and tab so that "1,5;2,5" in a decimal-comma language is too; "1,5 2,5" fails the comma
// split (three parts) and falls through to whitespace.
const separators = [/;/, /\t/, /\s*,\s*/, /\s+/];

/**
 * One vertex per line as `x,y`, `x;y`, or the two numbers separated by tabs or spaces; blank
 * lines are ignored. Every line that is not a vertex is reported with its 1-based number.
 */
export function parseVertices(text: string, parseNumber: ParseNumber): VerticesResult {
  const vertices: Point[] = [];
  const errors: FieldError[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const p = parseLine(line, parseNumber);
    if (p) vertices.push(p);
    else errors.push({ field: FIELD, code: 'invalidVertex', line: i + 1 });
  });
  if (errors.length > 0) return { ok: false, errors };
  if (vertices.length === 0) return { ok: false, errors: [{ field: FIELD, code: 'required' }] };
  return { ok: true, vertices };
}

function parseLine(line: string, parseNumber: ParseNumber): Point | undefined {
  for (const sep of separators) {
    const parts = line.split(sep);
    if (parts.length !== 2) continue;
    const [x, y] = parts.map((s) => parseNumber(s.trim()));
    if (x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y)) return { x, y };
  }
  return undefined;
}

/** Parses the text and computes the polygon's area: the calculator's entry point for it. */
export function polygonAreaFromText(text: string, parseNumber: ParseNumber): AreaResult {
  const parsed = parseVertices(text, parseNumber);
  return parsed.ok ? polygonArea(parsed.vertices) : parsed;
}

export function polygonArea(input: readonly Point[]): AreaResult {
  const fail = (code: FieldError['code'], field = FIELD): AreaResult => ({ ok: false, errors: [{ field, code }] });
  const vertices = withoutRepeats(input);
  if (new Set(vertices.map((p) => `${p.x},${p.y}`)).size < 3) return fail('tooFewVertices');
  if (allCollinear(vertices)) return fail('zeroArea');
  if (selfIntersects(vertices)) return fail('selfIntersecting');

  const area = Math.abs(shoelace(vertices)) / 2;
  const perimeter = vertices.reduce((sum, p, i) => {
    const q = vertices[(i + 1) % vertices.length];
    return sum + Math.hypot(q.x - p.x, q.y - p.y);
  }, 0);
  if (!(Number.isFinite(area) && area > 0 && Number.isFinite(perimeter))) return fail('outOfRange', RESULT_FIELD);

  const n = vertices.length;
  const next = (i: number) => (i + 1) % n;
  const areaTemplate = `A = ½ × |${vertices
    .map((_, i) => `({x${i}} × {y${next(i)}} − {x${next(i)}} × {y${i}})`)
    .join(' + ')}|`;
  const perimeterTemplate = `P = ${vertices
    .map((_, i) => `√(({x${next(i)}} − {x${i}})² + ({y${next(i)}} − {y${i}})²)`)
    .join(' + ')}`;
  const valueText = (fmt: Formatter) => (name: string) => {
    const p = vertices[Number(name.slice(1))];
    return fmt(name[0] === 'x' ? p.x : p.y);
  };
  return {
    ok: true,
    area,
    perimeter,
    formula: 'A = ½ × |Σ (xᵢ × yᵢ₊₁ − xᵢ₊₁ × yᵢ)|',
    perimeterFormula: 'P = Σ √((xᵢ₊₁ − xᵢ)² + (yᵢ₊₁ − yᵢ)²)',
    substituted: (fmt) => fill(areaTemplate, valueText(fmt)),
    substitutedPerimeter: (fmt) => fill(perimeterTemplate, valueText(fmt)),
  };
}

/** Drops a vertex repeated right after itself, and a closing copy of the first vertex. */
function withoutRepeats(vertices: readonly Point[]): Point[] {
  const out = vertices.filter((p, i) => i === 0 || !same(p, vertices[i - 1]));
  while (out.length > 1 && same(out[0], out[out.length - 1])) out.pop();
  return out;
}

function same(p: Point, q: Point): boolean {
  return p.x === q.x && p.y === q.y;
}

/** Twice the signed area, taken relative to the first vertex to limit cancellation. */
function shoelace(v: readonly Point[]): number {
  const o = v[0];
  let sum = 0;
  for (let i = 1; i + 1 < v.length; i++) {
    sum += cross(o, v[i], v[i + 1]);
  }
  return sum;
}

/** (b − a) × (c − a): positive if a, b, c turn left, zero if collinear. */
function cross(a: Point, b: Point, c: Point): number {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

function allCollinear(v: readonly Point[]): boolean {
  const a = v[0];
  const b = v.find((p) => !same(p, a))!;
  return v.every((p) => cross(a, b, p) === 0);
}

function selfIntersects(v: readonly Point[]): boolean {
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const [a, b] = [v[i], v[(i + 1) % n]];
    for (let j = i + 1; j < n; j++) {
      const [c, d] = [v[j], v[(j + 1) % n]];
      if (j === i + 1) {
        if (foldsBack(a, b, d)) return true;
      } else if (i === 0 && j === n - 1) {
        if (foldsBack(c, a, b)) return true;
      } else if (segmentsTouch(a, b, c, d)) {
        return true;
      }
    }
  }
  return false;
}

/** Whether edges a→b and b→c, which share b, run back along each other. */
function foldsBack(a: Point, b: Point, c: Point): boolean {
  return cross(a, b, c) === 0 && (a.x - b.x) * (c.x - b.x) + (a.y - b.y) * (c.y - b.y) > 0;
}

/** Whether segments ab and cd have any point in common, their ends included. */
export function segmentsTouch(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = Math.sign(cross(c, d, a));
  const d2 = Math.sign(cross(c, d, b));
  const d3 = Math.sign(cross(a, b, c));
  const d4 = Math.sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && within(c, d, a)) ||
    (d2 === 0 && within(c, d, b)) ||
    (d3 === 0 && within(a, b, c)) ||
    (d4 === 0 && within(a, b, d))
  );
}

/** For r collinear with pq: whether r lies on the segment pq. */
function within(p: Point, q: Point, r: Point): boolean {
  return (
    Math.min(p.x, q.x) <= r.x && r.x <= Math.max(p.x, q.x) && Math.min(p.y, q.y) <= r.y && r.y <= Math.max(p.y, q.y)
  );
}
