import { describe, expect, it } from 'vitest';
import { keyAction } from './keys';

type Mods = Partial<Record<'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey', boolean>>;
const press = (key: string, mods: Mods = {}, step = 1) =>
  keyAction({ key, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...mods }, step);

describe('cropper keys', () => {
  it('moves with the arrows, ten times further with Shift', () => {
    expect(press('ArrowLeft')).toEqual({ kind: 'move', dx: -1, dy: 0 });
    expect(press('ArrowRight')).toEqual({ kind: 'move', dx: 1, dy: 0 });
    expect(press('ArrowUp')).toEqual({ kind: 'move', dx: 0, dy: -1 });
    expect(press('ArrowDown')).toEqual({ kind: 'move', dx: 0, dy: 1 });
    expect(press('ArrowDown', { shiftKey: true })).toEqual({ kind: 'move', dx: 0, dy: 10 });
    expect(press('ArrowLeft', {}, 4)).toEqual({ kind: 'move', dx: -4, dy: 0 });
  });

  it('resizes with Alt and the arrows, from the right and bottom edges', () => {
    expect(press('ArrowRight', { altKey: true })).toEqual({ kind: 'resize', handle: 'e', dx: 1, dy: 0 });
    expect(press('ArrowLeft', { altKey: true })).toEqual({ kind: 'resize', handle: 'e', dx: -1, dy: 0 });
    expect(press('ArrowDown', { altKey: true, shiftKey: true })).toEqual({ kind: 'resize', handle: 's', dx: 0, dy: 10 });
    expect(press('ArrowUp', { altKey: true })).toEqual({ kind: 'resize', handle: 's', dx: 0, dy: -1 });
  });

  it('zooms with + and − (with or without Shift), by the 0.2 coefficient', () => {
    for (const k of ['+', '=']) expect(press(k)).toEqual({ kind: 'zoom', factor: 1.2 });
    for (const k of ['-', '_']) expect(press(k)).toEqual({ kind: 'zoom', factor: 1 / 1.2 });
    expect(press('+', { shiftKey: true })).toEqual({ kind: 'zoom', factor: 1.2 });
  });

  it('rotates with [ and ]', () => {
    expect(press('[')).toEqual({ kind: 'rotate', dir: -1 });
    expect(press(']')).toEqual({ kind: 'rotate', dir: 1 });
  });

  it("leaves the page's and the browser's keys alone", () => {
    expect(press('r')).toBeUndefined();
    expect(press('R', { shiftKey: true })).toBeUndefined();
    expect(press('h')).toBeUndefined();
    expect(press('+', { ctrlKey: true })).toBeUndefined(); // browser zoom
    expect(press('-', { metaKey: true })).toBeUndefined();
    expect(press('ArrowLeft', { metaKey: true })).toBeUndefined();
    expect(press('+', { altKey: true })).toBeUndefined();
    expect(press('Tab')).toBeUndefined();
    expect(press('Enter')).toBeUndefined();
    expect(press(' ')).toBeUndefined();
  });
});
