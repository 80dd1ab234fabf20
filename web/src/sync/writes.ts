// Writes as the client makes them, applied locally exactly as the server applies them (see
// internal/docstore: a replace, a merge of the masked field paths, a delete), and sent to
// POST /api/v1/db/commit in its encoding.
import type { Fields, Value } from './values';

/** A document as the client holds it: its path and fields; null when there is none. */
export interface LocalDoc {
  path: string;
  fields: Fields;
}

export type Write =
  | { kind: 'set'; path: string; fields: Fields }
  /** Sets the masked field paths (dotted, plain names) to their values in fields, and deletes
   * the masked paths that fields lacks. */
  | { kind: 'merge'; path: string; fields: Fields; mask: string[] }
  | { kind: 'delete'; path: string };

/** The write in the commit request's encoding. */
export function toServer(w: Write): object {
  switch (w.kind) {
    case 'set':
      return { update: { name: w.path, fields: w.fields } };
    case 'merge':
      return { update: { name: w.path, fields: w.fields }, updateMask: { fieldPaths: w.mask } };
    case 'delete':
      return { delete: w.path };
  }
}

/** The document after w, given the document before it (null: none). */
export function applyWrite(before: LocalDoc | null, w: Write): LocalDoc | null {
  switch (w.kind) {
    case 'delete':
      return null;
    case 'set':
      return { path: w.path, fields: structuredClone(w.fields) };
    case 'merge': {
      const fields = structuredClone(before?.fields ?? {});
      for (const mask of w.mask) {
        const path = mask.split('.');
        const value = get(w.fields, path);
        if (value === undefined) remove(fields, path);
        else put(fields, path, structuredClone(value));
      }
      return { path: w.path, fields };
    }
  }
}

function get(fields: Fields, path: string[]): Value | undefined {
  let v: Value | undefined = fields[path[0]];
  for (const name of path.slice(1)) {
    if (!v || !('mapValue' in v)) return undefined;
    v = v.mapValue.fields?.[name];
  }
  return v;
}

function put(fields: Fields, path: string[], value: Value): void {
  let m = fields;
  for (const name of path.slice(0, -1)) {
    let next = m[name];
    if (!next || !('mapValue' in next)) {
      next = { mapValue: { fields: {} } };
      m[name] = next;
    }
    next.mapValue.fields ??= {};
    m = next.mapValue.fields;
  }
  m[path[path.length - 1]] = value;
}

function remove(fields: Fields, path: string[]): void {
  let m: Fields | undefined = fields;
  for (const name of path.slice(0, -1)) {
    const next: Value | undefined = m?.[name];
    m = next && 'mapValue' in next ? next.mapValue.fields : undefined;
  }
  if (m) delete m[path[path.length - 1]];
}
