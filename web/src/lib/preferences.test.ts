import { describe, expect, it } from 'vitest';
import { getPreferences, setPreferences, toolPreferences, withPreferences } from './preferences';

describe('preferences', () => {
  it('fill in only what a link does not say', () => {
    const q = withPreferences(new URLSearchParams('unit=ft&r=2'), { unit: 'cm', dp: '3' });
    expect(q.toString()).toBe('unit=ft&r=2&dp=3');
    expect(withPreferences(new URLSearchParams('a=1'), undefined).toString()).toBe('a=1');
  });

  it('give a tool only its own settings, as strings', () => {
    const p = { tools: { 'area-calculator': { unit: 'cm', shape: 'circle', dp: 3 as unknown as string, in: 'ha' } } };
    expect(toolPreferences(p, 'area-calculator')).toEqual({ unit: 'cm', in: 'ha' });
    expect(toolPreferences(p, 'speed-calculator')).toBeUndefined();
    expect(toolPreferences({}, 'area-calculator')).toBeUndefined();
  });

  it('are what was last set', () => {
    setPreferences({ theme: 'dark' });
    expect(getPreferences()).toEqual({ theme: 'dark' });
    setPreferences({});
  });
});
