import { describe, expect, test } from 'vitest';
import { busiest, xLabels, yTicks } from './chart';

describe('yTicks', () => {
  test('round ticks from 0 to at least the maximum', () => {
    expect(yTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(yTicks(30000)).toEqual([0, 10000, 20000, 30000]);
    expect(yTicks(31000)).toEqual([0, 10000, 20000, 30000, 40000]);
    expect(yTicks(9)).toEqual([0, 5, 10]);
    expect(yTicks(100)).toEqual([0, 25, 50, 75, 100]);
  });

  test('whole numbers only, and something to draw for no views', () => {
    expect(yTicks(1)).toEqual([0, 1]);
    expect(yTicks(3)).toEqual([0, 1, 2, 3]);
    expect(yTicks(0)).toEqual([0, 1]);
    expect(yTicks(Number.NaN)).toEqual([0, 1]);
  });

  test('never more than five ticks', () => {
    for (let max = 1; max < 1e7; max = Math.ceil(max * 1.37)) {
      const t = yTicks(max);
      expect(t.length, String(max)).toBeLessThanOrEqual(5);
      expect(t.at(-1)!, String(max)).toBeGreaterThanOrEqual(max);
    }
  });
});

describe('xLabels', () => {
  test('first and last, evenly between', () => {
    expect(xLabels(30)).toEqual([0, 6, 12, 17, 23, 29]);
    expect(xLabels(365)).toEqual([0, 73, 146, 218, 291, 364]);
    expect(xLabels(3)).toEqual([0, 1, 2]);
    expect(xLabels(1)).toEqual([0]);
    expect(xLabels(0)).toEqual([]);
    expect(xLabels(7, 3)).toEqual([0, 3, 6]);
  });
});

test('busiest is the first of the highest', () => {
  expect(busiest([1, 5, 3, 5])).toBe(1);
  expect(busiest([])).toBe(-1);
});
