// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortcutOf, useShortcuts, type Shortcut } from './useShortcuts';

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
});

describe('useShortcuts', () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  afterEach(() => vi.restoreAllMocks());

  function Keys({ enabled, run }: { enabled: boolean; run: (s: Shortcut) => void }) {
    useShortcuts(enabled, run);
    return null;
  }
  const press = (k: string) => {
    const e = new KeyboardEvent('keydown', { key: k, cancelable: true });
    document.dispatchEvent(e);
    return e;
  };
  const keydownListeners = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([type]) => type === 'keydown').length;

  it('listens from the first render to the unmount, once, and calls the latest handler while enabled', () => {
    const added = vi.spyOn(document, 'addEventListener');
    const removed = vi.spyOn(document, 'removeEventListener');
    const root = createRoot(document.createElement('div'));
    const first = vi.fn();
    const second = vi.fn();

    act(() => root.render(createElement(Keys, { enabled: false, run: first })));
    expect(press('h').defaultPrevented).toBe(false);
    act(() => root.render(createElement(Keys, { enabled: true, run: first })));
    act(() => root.render(createElement(Keys, { enabled: true, run: second })));
    expect(press('h').defaultPrevented).toBe(true);
    expect(press('x').defaultPrevented).toBe(false);
    expect([first.mock.calls, second.mock.calls]).toEqual([[], [['flipH']]]);
    expect(keydownListeners(added)).toBe(1);
    expect(keydownListeners(removed)).toBe(0);

    act(() => root.unmount());
    expect(keydownListeners(removed)).toBe(1);
    press('h');
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('leaves keys typed into a field to the field', () => {
    const root = createRoot(document.createElement('div'));
    const run = vi.fn();
    act(() => root.render(createElement(Keys, { enabled: true, run })));
    const input = document.body.appendChild(document.createElement('input'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'h', bubbles: true }));
    expect(run).not.toHaveBeenCalled();
    act(() => root.unmount());
    input.remove();
  });
});
