import { describe, expect, it } from 'vitest';
import { fill } from './formula';

describe('fill', () => {
  const values: Record<string, string> = { r: '2', a: '1,5', b: '1.2e-7', c: '-3', d: '1 234,5' };
  const text = (name: string) => values[name] ?? name;

  it('puts symbols or values in place', () => {
    expect(fill('A = π × {r}²', (n) => n)).toBe('A = π × r²');
    expect(fill('A = π × {r}²', text)).toBe('A = π × 2²');
    expect(fill('A = ½ × {a} × {d}', text)).toBe('A = ½ × 1,5 × 1 234,5');
    expect(fill('A = {a}²', text)).toBe('A = 1,5²');
  });

  it('parenthesises what would bind wrongly', () => {
    expect(fill('A = {b}²', text)).toBe('A = (1.2e-7)²');
    expect(fill('A = {b} × 2', text)).toBe('A = 1.2e-7 × 2');
    expect(fill('x = 1 × {c}', text)).toBe('x = 1 × (-3)');
    expect(fill('x = {c}²', text)).toBe('x = (-3)²');
    expect(fill('x = {c}²', () => '−3')).toBe('x = (−3)²');
    expect(fill('x = {n}²', () => '١٫٥')).toBe('x = ١٫٥²');
  });
});
