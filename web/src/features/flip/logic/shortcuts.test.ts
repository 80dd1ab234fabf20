import { describe, expect, it } from 'vitest';
import { ariaKeys, legendKeys, shortcutOf, shortcuts, titleKeys } from './shortcuts';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) =>
  shortcutOf({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

describe('shortcuts', () => {
  it('maps H, V, R, Shift+R and Z', () => {
    expect(key('h')).toBe('flipH');
    expect(key('H', { shiftKey: true })).toBe('flipH');
    expect(key('v')).toBe('flipV');
    expect(key('r')).toBe('rotateCW');
    expect(key('R', { shiftKey: true })).toBe('rotateCCW');
    expect(key('z')).toBe('zoom');
    expect(key('Z')).toBe('zoom'); // caps lock
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

  it('spells each key the way the legend, the titles and aria-keyshortcuts show it', () => {
    expect(shortcuts.map((s) => [s.action, legendKeys(s)])).toEqual([
      ['flipH', 'H'],
      ['flipV', 'V'],
      ['rotateCW', 'R'],
      ['rotateCCW', 'Shift + R'],
      ['undo', 'Ctrl/⌘ + Z'],
      ['save', 'Ctrl/⌘ + S'],
      ['zoom', 'Z'],
    ]);
    expect(shortcuts.map((s) => titleKeys(s.action))).toEqual(['H', 'V', 'R', 'Shift+R', 'Ctrl+Z', 'Ctrl+S', 'Z']);
    expect(shortcuts.map((s) => ariaKeys(s.action))).toEqual(['H', 'V', 'R', 'Shift+R', 'Control+Z', 'Control+S', 'Z']);
  });

  it('gives every press one meaning at most', () => {
    for (const s of shortcuts) {
      const press = { key: s.key, ctrlKey: s.mod, metaKey: false, altKey: false, shiftKey: s.shift ?? false };
      expect(shortcutOf(press)).toBe(s.action);
    }
  });
});
