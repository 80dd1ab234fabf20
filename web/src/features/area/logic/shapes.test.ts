import { describe, expect, it } from 'vitest';
import { isShapeId, shapes, shapeSpec } from './shapes';

describe('shape table', () => {
  it('has unique URL-safe shape ids', () => {
    const ids = shapes.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('gives each shape unique URL-safe field ids, with a symbol for each number', () => {
    for (const { fields } of shapes) {
      const ids = fields.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const f of fields) {
        expect(f.id).toMatch(/^[a-z][a-z0-9]*$/i);
        if (f.kind !== 'vertices') expect(f.symbol).toMatch(/^\S+$/u);
      }
    }
  });

  it('groups variants of one figure', () => {
    const family = (f: string) => shapes.filter((s) => s.family === f).map((s) => s.id);
    expect(family('triangle')).toEqual(['triangle', 'triangle-sss', 'triangle-sas']);
    expect(family('circle')).toEqual(['circle', 'circle-diameter']);
    expect(family('parallelogram')).toEqual(['parallelogram', 'parallelogram-sas']);
    expect(family('rhombus')).toEqual(['rhombus', 'rhombus-side-angle']);
  });

  it('says which fields are lengths, angles and counts', () => {
    expect(shapeSpec('sector').fields).toEqual([
      { kind: 'length', id: 'r', symbol: 'r' },
      { kind: 'angle', id: 'angle', symbol: 'θ', range: 'upTo360' },
    ]);
    expect(shapeSpec('regular-polygon').fields[0]).toEqual({ kind: 'count', id: 'n', symbol: 'n', min: 3 });
    expect(shapeSpec('trapezoid').fields.filter((f) => 'optional' in f).map((f) => f.id)).toEqual(['c', 'd']);
    expect(shapeSpec('polygon').fields).toEqual([{ kind: 'vertices', id: 'vertices' }]);
  });

  it('recognises its ids', () => {
    expect(isShapeId('annulus')).toBe(true);
    expect(isShapeId('hexagon')).toBe(false);
    expect(isShapeId('toString')).toBe(false);
  });
});
