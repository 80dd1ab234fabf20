// A history entry as a document of users/{uid}/history (or of the device-only copy, under the
// same path shape with the uid "local"): plain fields, the time as a timestamp.
import type { Fields } from '../../../sync/values';
import { fromFields, toFields } from '../../../sync/values';
import { history } from '../../../lib/site';
import { tools, type HistoryEntry, type Tool } from './entries';

export const localOwner = 'local';

export const historyCollection = (uid: string) => `users/${uid}/${history.collection}`;
export const entryPath = (uid: string, id: string) => `${historyCollection(uid)}/${id}`;

export function entryFields(e: HistoryEntry): Fields {
  return toFields({ tool: e.tool, at: new Date(e.at), title: e.title, query: e.query, detail: e.detail });
}

/** The entry a document holds, or undefined when it is not one (written by something else). */
export function entryOf(path: string, fields: Fields): HistoryEntry | undefined {
  const f = fromFields(fields);
  const id = path.slice(path.lastIndexOf('/') + 1);
  if (!tools.includes(f.tool as Tool) || !(f.at instanceof Date) || typeof f.title !== 'string') return undefined;
  return {
    id,
    tool: f.tool as Tool,
    at: f.at.getTime(),
    title: f.title,
    query: typeof f.query === 'string' ? f.query : '',
    detail: typeof f.detail === 'string' ? f.detail : '',
  };
}
