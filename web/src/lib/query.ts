// Calculator fields in the query string. A field that holds a number is written in JavaScript
// notation (`1.5`, `2.5e-7`), so a link made on a German page means the same on an English
// one; anything else (half-typed, invalid) is kept as typed, so reloading loses nothing.
import { inputText, parseNumber } from './number';

const canonical = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

/** A field's text as it goes into the query string. */
export function toParam(text: string, lang: string): string {
  const n = parseNumber(text, lang);
  return n.ok ? String(n.value) : text.trim();
}

/** A query-string value as the field shows it in `lang`. */
export function fromParam(param: string, lang: string): string {
  if (!canonical.test(param)) return param;
  const value = Number(param);
  return Number.isFinite(value) ? inputText(value, lang) : param;
}

/** The first value of `key` if it is one of `allowed`, else `fallback`. */
export function pick<T extends string>(params: URLSearchParams, key: string, allowed: readonly T[], fallback: T): T {
  const v = params.get(key);
  return v !== null && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

/** A query string from entries, leaving out empty values and values equal to their default. */
export function buildSearch(entries: readonly (readonly [string, string, string?])[]): string {
  const params = new URLSearchParams();
  for (const [key, value, fallback] of entries) {
    if (value !== '' && value !== fallback) params.append(key, value);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** How a tool's state is read from and written to its query string. */
export interface QueryCodec<T> {
  decode(params: URLSearchParams): T;
  /** The query string of a state: `?a=1&b=2`, or '' for the defaults. */
  encode(state: T): string;
}
