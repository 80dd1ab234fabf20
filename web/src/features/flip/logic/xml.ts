// Just enough XML to find an SVG's root element and the end of its content, without a DOM (the
// code runs in workers and in Node too): skipping the prolog, reading start tags with their
// attributes in any order and quoting, and stepping over comments, CDATA and processing
// instructions, where a '<' or '>' is not markup.

export interface Attribute {
  readonly name: string;
  readonly value: string;
  /** Where the name starts and the value's text starts and ends (inside its quotes). */
  readonly nameStart: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  /** The quote character around the value; '' when unquoted (not XML, but seen in the wild). */
  readonly quote: '"' | "'" | '';
}

export interface StartTag {
  readonly name: string;
  readonly start: number;
  /** One past the closing '>'. */
  readonly end: number;
  readonly selfClosing: boolean;
  readonly attributes: readonly Attribute[];
}

const space = /\s/;
const nameStart = /[A-Za-z_:\u00C0-\uFFFF]/;
const nameChar = /[\w.:\u00B7\u00C0-\uFFFF-]/;

/** The position after `close`, searching from `from`; undefined if it never comes. */
function after(text: string, from: number, close: string): number | undefined {
  const i = text.indexOf(close, from);
  return i < 0 ? undefined : i + close.length;
}

/** Skips a DOCTYPE, with its internal subset in brackets, where quotes and comments may hold '>'. */
function skipDoctype(text: string, pos: number): number | undefined {
  let depth = 0;
  for (let i = pos + 2; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const j = text.indexOf(c, i + 1);
      if (j < 0) return undefined;
      i = j;
    } else if (text.startsWith('<!--', i)) {
      const j = after(text, i + 4, '-->');
      if (j === undefined) return undefined;
      i = j - 1;
    } else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return undefined;
}

/**
 * Where the root element's start tag begins: after a byte order mark, white space, the XML
 * declaration, comments, processing instructions and a DOCTYPE. Undefined if anything else
 * comes first or the text ends before an element.
 */
export function rootStart(text: string): number | undefined {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (pos < text.length && space.test(text[pos])) pos++;
    let next: number | undefined;
    if (text.startsWith('<?', pos)) next = after(text, pos + 2, '?>');
    else if (text.startsWith('<!--', pos)) next = after(text, pos + 4, '-->');
    else if (text.slice(pos, pos + 9).toUpperCase() === '<!DOCTYPE') next = skipDoctype(text, pos);
    else return text[pos] === '<' && nameStart.test(text[pos + 1] ?? '') ? pos : undefined;
    if (next === undefined) return undefined;
    pos = next;
  }
}

/** The start tag at `pos` (which holds '<'), or undefined if it is not a well-formed one. */
export function readStartTag(text: string, pos: number): StartTag | undefined {
  if (text[pos] !== '<' || !nameStart.test(text[pos + 1] ?? '')) return undefined;
  let i = pos + 1;
  while (i < text.length && nameChar.test(text[i])) i++;
  const name = text.slice(pos + 1, i);
  const attributes: Attribute[] = [];
  for (;;) {
    const before = i;
    while (i < text.length && space.test(text[i])) i++;
    if (text[i] === '>') return { name, start: pos, end: i + 1, selfClosing: false, attributes };
    if (text.startsWith('/>', i)) return { name, start: pos, end: i + 2, selfClosing: true, attributes };
    // Attributes are separated by white space.
    if (i === before || !nameStart.test(text[i] ?? '')) return undefined;
    const attrStart = i;
    while (i < text.length && nameChar.test(text[i])) i++;
    const attrName = text.slice(attrStart, i);
    while (i < text.length && space.test(text[i])) i++;
    if (text[i] !== '=') return undefined;
    i++;
    while (i < text.length && space.test(text[i])) i++;
    const q = text[i];
    let valueStart: number;
    let valueEnd: number;
    let quote: Attribute['quote'];
    if (q === '"' || q === "'") {
      quote = q;
      valueStart = i + 1;
      valueEnd = text.indexOf(q, valueStart);
      if (valueEnd < 0) return undefined;
      i = valueEnd + 1;
    } else {
      quote = '';
      valueStart = i;
      while (i < text.length && !space.test(text[i]) && text[i] !== '>' && !text.startsWith('/>', i)) i++;
      valueEnd = i;
      if (valueEnd === valueStart) return undefined;
    }
    attributes.push({ name: attrName, value: text.slice(valueStart, valueEnd), nameStart: attrStart, valueStart, valueEnd, quote });
  }
}

/**
 * For an element whose start tag ends at `contentStart`: where its content ends, at its
 * matching end tag, and where that end tag ends. Every nested element is counted (an <svg>
 * inside the <svg> too), and markup-like text in comments, CDATA sections and processing
 * instructions is skipped. Undefined if the document ends first or is malformed.
 */
export function findEnd(text: string, contentStart: number): { contentEnd: number; end: number } | undefined {
  let depth = 1;
  let pos = contentStart;
  for (;;) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) return undefined;
    let next: number | undefined;
    if (text.startsWith('<!--', lt)) next = after(text, lt + 4, '-->');
    else if (text.startsWith('<![CDATA[', lt)) next = after(text, lt + 9, ']]>');
    else if (text.startsWith('<?', lt)) next = after(text, lt + 2, '?>');
    else if (text.startsWith('<!', lt)) next = after(text, lt + 2, '>');
    else if (text.startsWith('</', lt)) {
      next = after(text, lt + 2, '>');
      if (next !== undefined && --depth === 0) return { contentEnd: lt, end: next };
    } else {
      const tag = readStartTag(text, lt);
      if (tag === undefined) return undefined;
      if (!tag.selfClosing) depth++;
      next = tag.end;
    }
    if (next === undefined) return undefined;
    pos = next;
  }
}
