// The server keeps a schema for history entries (internal/account/schema.go): the entries its
// Go test accepts (internal/account/testdata/frontend_writes.json) are what entryFields writes.
import { describe, expect, it } from 'vitest';
import frontEndWrites from '../../../../../internal/account/testdata/frontend_writes.json';
import { fromFields, type Fields } from '../../../sync/values';
import { entryFields, entryOf } from './documents';

describe('the history entries the server accepts (frontend_writes.json)', () => {
  it('are what entryFields writes', () => {
    const writes = frontEndWrites.filter((w) => w.path.split('/').length === 4);
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes) {
      const fields = w.fields as unknown as Fields;
      const entry = entryOf(w.path, fields);
      expect(entry).toBeDefined();
      expect(fromFields(entryFields(entry!))).toEqual(fromFields(fields));
    }
  });
});
