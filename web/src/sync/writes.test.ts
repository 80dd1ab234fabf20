import { describe, expect, it } from 'vitest';
import { toFields } from './values';
import { applyWrite, toServer, type LocalDoc } from './writes';

const doc = (fields: Parameters<typeof toFields>[0]): LocalDoc => ({ path: 'users/u1', fields: toFields(fields) });

describe('applyWrite', () => {
  it('replaces, merges the masked paths only, and deletes', () => {
    const before = doc({ a: 1, m: { x: 1, y: 2 }, keep: true });
    expect(applyWrite(before, { kind: 'set', path: 'users/u1', fields: toFields({ b: 2 }) })).toEqual(doc({ b: 2 }));
    const merged = applyWrite(before, { kind: 'merge', path: 'users/u1', fields: toFields({ a: 5, m: { x: 9, z: 3 }, ignored: 1 }), mask: ['a', 'm.x', 'm.y', 'n.deep'] });
    expect(merged).toEqual(doc({ a: 5, m: { x: 9 }, keep: true }));
    expect(applyWrite(before, { kind: 'delete', path: 'users/u1' })).toBeNull();
  });

  it('creates the document and the maps a merge needs', () => {
    expect(applyWrite(null, { kind: 'merge', path: 'users/u1', fields: toFields({ p: { area: { unit: 'm2' } } }), mask: ['p.area.unit'] })).toEqual(
      doc({ p: { area: { unit: 'm2' } } }),
    );
  });

  it('leaves the document before it alone', () => {
    const before = doc({ m: { x: 1 } });
    const copy = structuredClone(before);
    applyWrite(before, { kind: 'merge', path: 'users/u1', fields: toFields({ m: { x: 2 } }), mask: ['m.x'] });
    expect(before).toEqual(copy);
  });
});

describe('toServer', () => {
  it('writes the commit encoding', () => {
    expect(toServer({ kind: 'merge', path: 'users/u1', fields: {}, mask: ['a'] })).toEqual({ update: { name: 'users/u1', fields: {} }, updateMask: { fieldPaths: ['a'] } });
    expect(toServer({ kind: 'delete', path: 'users/u1/history/h' })).toEqual({ delete: 'users/u1/history/h' });
  });
});
