import { describe, expect, it } from 'vitest';
import { toFields } from '../../../sync/values';
import { entryFields, entryOf, entryPath } from './documents';
import type { HistoryEntry } from './entries';

describe('history documents', () => {
  const e: HistoryEntry = { id: 'x1', tool: 'speed', at: Date.UTC(2026, 10, 23, 8), title: '50 km/h', query: '?d=100&t=2', detail: '' };

  it('round-trips an entry through its document', () => {
    const fields = entryFields(e);
    expect(fields.at).toEqual({ timestampValue: '2026-11-23T08:00:00.000Z' });
    expect(entryOf(entryPath('u1', 'x1'), fields)).toEqual(e);
  });

  it('ignores documents that are not entries', () => {
    expect(entryOf('users/u1/history/y', toFields({ tool: 'paint', at: new Date(0), title: '' }))).toBeUndefined();
    expect(entryOf('users/u1/history/y', toFields({ tool: 'area', at: 'yesterday', title: '' }))).toBeUndefined();
  });
});
