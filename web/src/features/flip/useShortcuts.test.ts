import { describe, expect, it } from 'vitest';
import { shortcutOf } from './useShortcuts';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) =>
  shortcutOf({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

describe('shortcuts', () => {
  it('maps H, V, R and Shift+R', () => {
    expect(key('h')).toBe('flipH');
    expect(key('H', { shiftKey: true })).toBe('flipH');
    expect(key('v')).toBe('flipV');
    expect(key('r')).toBe('rotateCW');
    expect(key('R', { shiftKey: true })).toBe('rotateCCW');
  });

  it('maps Ctrl or Cmd with Z and S', () => {
    expect(key('z', { ctrlKey: true })).toBe('undo');
    expect(key('z', { metaKey: true })).toBe('undo');
    expect(key('s', { ctrlKey: true })).toBe('save');
    expect(key('S', { metaKey: true })).toBe('save');
    expect(key('z', { ctrlKey: true, shiftKey: true })).toBeUndefined();
  });

  it('leaves other keys and Alt combinations alone', () => {
    expect(key('x')).toBeUndefined();
    expect(key('h', { ctrlKey: true })).toBeUndefined();
    expect(key('h', { altKey: true })).toBeUndefined();
    expect(key('Enter')).toBeUndefined();
  });
});
