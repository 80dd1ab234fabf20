// Firestore REST v1 values, as the document API (/api/v1/db) sends and takes them, to and from
// plain JavaScript. The history and the preferences hold only plain data, so the mapping is
// the obvious one: whole numbers within ±2^53 are integers, other numbers doubles.

/** One value in the wire encoding. */
export type Value =
  | { nullValue: null }
  | { booleanValue: boolean }
  | { integerValue: string }
  | { doubleValue: number | 'NaN' | 'Infinity' | '-Infinity' }
  | { timestampValue: string }
  | { stringValue: string }
  | { bytesValue: string }
  | { geoPointValue: { latitude: number; longitude: number } }
  | { referenceValue: string }
  | { arrayValue: { values?: Value[] } }
  | { mapValue: { fields?: Fields } };

/** A document's fields in the wire encoding. */
export type Fields = Record<string, Value>;

/** Plain data a document may hold. Dates become timestamps, Uint8Arrays bytes. */
export type Plain = null | boolean | number | bigint | string | Date | Uint8Array | Plain[] | { [key: string]: Plain };

/** Encodes plain data. Throws a TypeError for anything else (functions, symbols, undefined). */
export function toValue(v: Plain): Value {
  if (v === null) return { nullValue: null };
  switch (typeof v) {
    case 'boolean':
      return { booleanValue: v };
    case 'bigint':
      return { integerValue: v.toString() };
    case 'string':
      return { stringValue: v };
    case 'number':
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return { integerValue: String(v) };
      if (Number.isNaN(v)) return { doubleValue: 'NaN' };
      if (v === Infinity) return { doubleValue: 'Infinity' };
      if (v === -Infinity) return { doubleValue: '-Infinity' };
      return { doubleValue: v };
    case 'object':
      if (v instanceof Date) return { timestampValue: v.toISOString() };
      if (v instanceof Uint8Array) return { bytesValue: toBase64(v) };
      if (Array.isArray(v)) return { arrayValue: { values: v.map(toValue) } };
      return { mapValue: { fields: toFields(v) } };
    default:
      throw new TypeError(`a document cannot hold a ${typeof v}`);
  }
}

/** Encodes a plain object as fields. */
export function toFields(o: { [key: string]: Plain }): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(o)) out[k] = toValue(v);
  return out;
}

/** Decodes a value to plain data: integers beyond ±2^53 as bigint, references as their path. */
export function fromValue(v: Value): Plain {
  if ('nullValue' in v) return null;
  if ('booleanValue' in v) return v.booleanValue;
  if ('integerValue' in v) {
    const n = Number(v.integerValue);
    return Number.isSafeInteger(n) ? n : BigInt(v.integerValue);
  }
  if ('doubleValue' in v) return typeof v.doubleValue === 'number' ? v.doubleValue : Number(v.doubleValue);
  if ('timestampValue' in v) return new Date(v.timestampValue);
  if ('stringValue' in v) return v.stringValue;
  if ('bytesValue' in v) return fromBase64(v.bytesValue);
  if ('geoPointValue' in v) return { latitude: v.geoPointValue.latitude, longitude: v.geoPointValue.longitude };
  if ('referenceValue' in v) return v.referenceValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(fromValue);
  return fromFields(v.mapValue.fields ?? {});
}

/** Decodes fields to a plain object. */
export function fromFields(f: Fields): { [key: string]: Plain } {
  const out: { [key: string]: Plain } = {};
  for (const [k, v] of Object.entries(f)) out[k] = fromValue(v);
  return out;
}

function toBase64(b: Uint8Array): string {
  let s = '';
  for (const byte of b) s += String.fromCharCode(byte);
  return btoa(s);
}

function fromBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}
