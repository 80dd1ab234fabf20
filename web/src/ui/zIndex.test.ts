import { describe, expect, it } from 'vitest';
import { baseZIndex, createZIndexCounter, nextZIndex } from './zIndex';

describe('zIndex', () => {
  it('counts up from 2000', () => {
    const next = createZIndexCounter();
    expect([next(), next(), next()]).toEqual([2000, 2001, 2002]);
    expect(baseZIndex).toBe(2000);
  });

  it('keeps separate counters apart', () => {
    const a = createZIndexCounter();
    const b = createZIndexCounter(10);
    a();
    expect([a(), b()]).toEqual([2001, 10]);
  });

  it('shares one counter across the page, always rising from at least 2000', () => {
    const first = nextZIndex();
    expect(first).toBeGreaterThanOrEqual(2000);
    expect(nextZIndex()).toBe(first + 1);
  });
});
