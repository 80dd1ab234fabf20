// Flips and rotates an SVG as a vector, by editing its text: the root's content goes into a
// group with the transform, and the root's size and viewBox turn with it. The rest of the file
// (declaration, DOCTYPE, namespaces, other attributes, comments) is kept byte for byte. No DOM:
// this runs in workers and in Node, and a parse-and-serialise round trip would rewrite the
// whole file.
import { canvasMatrix, isIdentity, swapsAxes, type Transform } from '../../../lib/image/transform';
import { findEnd, readStartTag, rootStart, type Attribute } from './xml';

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const numberPattern = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseNumber(s: string): number | undefined {
  const n = numberPattern.test(s) ? Number(s) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A viewBox of four numbers separated by white space and/or a comma; its size must be positive. */
function parseViewBox(value: string): Box | undefined {
  const parts = value.trim().split(/\s*,\s*|\s+/).map(parseNumber);
  if (parts.length !== 4) return undefined;
  const [x, y, width, height] = parts;
  if (x === undefined || y === undefined || width === undefined || height === undefined) return undefined;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/** A width or height in user units: unitless or px, positive; anything else (%, em, cm) cannot size the box. */
function parseLength(value: string): number | undefined {
  const m = /^\s*(\S+?)\s*(?:px)?\s*$/.exec(value);
  const n = m ? parseNumber(m[1]) : undefined;
  return n !== undefined && n > 0 ? n : undefined;
}

/** Numbers as SVG writes them; sums like 0.1 + 0.2 would otherwise show their binary residue. */
function format(n: number): string {
  const rounded = Number(n.toPrecision(15));
  return String(rounded === 0 ? 0 : rounded);
}

/**
 * preserveAspectRatio places the viewBox within a viewport of another shape. Its alignment is a
 * point of the box (Min = 0, Mid = ½, Max = 1 on each axis), which must turn with the picture:
 * an image pinned to the top is pinned to the right after a clockwise turn.
 */
function transformAlignment(value: string, t: Transform): string | undefined {
  const m = /^(\s*(?:defer\s+)?)x(Min|Mid|Max)Y(Min|Mid|Max)(\s*(?:meet|slice)?\s*)$/.exec(value);
  if (!m) return undefined;
  const steps = ['Min', 'Mid', 'Max'];
  const [a, b, c, d, e, f] = canvasMatrix(t, 2, 2);
  const x = steps.indexOf(m[2]);
  const y = steps.indexOf(m[3]);
  return `${m[1]}x${steps[a * x + c * y + e]}Y${steps[b * x + d * y + f]}${m[4]}`;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function quoted(a: Attribute, text: string): { start: number; end: number; raw: string } {
  const q = a.quote.length;
  return { start: a.valueStart - q, end: a.valueEnd + q, raw: text.slice(a.valueStart - q, a.valueEnd + q) };
}

/**
 * Applies a transform to an SVG document as vector: wraps the root's children in
 * <g transform="…">, swaps width/height and the viewBox size for quarter turns, keeps the XML
 * declaration, namespaces and attributes. Returns undefined if the text has no <svg> root (or
 * its root is not closed). Uses viewBox when present, else width/height (unitless or px); if
 * neither, undefined.
 */
export function transformSvg(text: string, t: Transform): string | undefined {
  const start = rootStart(text);
  const root = start === undefined ? undefined : readStartTag(text, start);
  if (!root) return undefined;
  const colon = root.name.indexOf(':');
  if (root.name.slice(colon + 1) !== 'svg') return undefined;

  const attr = (name: string) => root.attributes.find((a) => a.name === name);
  const viewBoxAttr = attr('viewBox');
  const widthAttr = attr('width');
  const heightAttr = attr('height');
  const alignAttr = attr('preserveAspectRatio');
  // An invalid viewBox is ignored by browsers, who then use the width and height: so do we.
  const viewBox = viewBoxAttr && parseViewBox(viewBoxAttr.value);
  let box = viewBox;
  if (!box && widthAttr && heightAttr) {
    const width = parseLength(widthAttr.value);
    const height = parseLength(heightAttr.value);
    if (width !== undefined && height !== undefined) box = { x: 0, y: 0, width, height };
  }
  if (!box) return undefined;
  const content = root.selfClosing ? undefined : findEnd(text, root.end);
  if (!root.selfClosing && !content) return undefined;
  if (isIdentity(t)) return text;

  const edits: Edit[] = [];
  if (swapsAxes(t)) {
    if (viewBoxAttr && viewBox) {
      const size = `${format(box.x)} ${format(box.y)} ${format(box.height)} ${format(box.width)}`;
      edits.push({ start: viewBoxAttr.valueStart, end: viewBoxAttr.valueEnd, text: size });
    }
    if (widthAttr && heightAttr) {
      // Each value moves with its own quotes, so that no quote inside it can end it early.
      const w = quoted(widthAttr, text);
      const h = quoted(heightAttr, text);
      edits.push({ start: w.start, end: w.end, text: h.raw }, { start: h.start, end: h.end, text: w.raw });
    } else if (widthAttr || heightAttr) {
      const only = (widthAttr ?? heightAttr) as Attribute;
      edits.push({ start: only.nameStart, end: only.nameStart + only.name.length, text: widthAttr ? 'height' : 'width' });
    }
  }
  const align = alignAttr && transformAlignment(alignAttr.value, t);
  if (alignAttr && align !== undefined) edits.push({ start: alignAttr.valueStart, end: alignAttr.valueEnd, text: align });

  let startTag = '';
  let pos = root.start;
  for (const edit of edits.sort((p, q) => p.start - q.start)) {
    startTag += text.slice(pos, edit.start) + edit.text;
    pos = edit.end;
  }
  startTag += text.slice(pos, root.end);
  const head = text.slice(0, root.start) + startTag;
  // A root without content has nothing to turn but its size.
  if (!content) return head + text.slice(root.end);

  // The matrix maps the box at the origin; conjugating with a shift by the box's corner keeps
  // a viewBox that does not start at 0 0 where it was.
  const [a, b, c, d, e, f] = canvasMatrix(t, box.width, box.height);
  const tx = e + box.x - (a * box.x + c * box.y);
  const ty = f + box.y - (b * box.x + d * box.y);
  const matrix = [a, b, c, d, tx, ty].map(format).join(' ');
  const g = colon < 0 ? 'g' : `${root.name.slice(0, colon)}:g`;
  return (
    head +
    `<${g} transform="matrix(${matrix})">` +
    text.slice(root.end, content.contentEnd) +
    `</${g}>` +
    text.slice(content.contentEnd)
  );
}
