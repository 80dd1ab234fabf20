// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Shortcut } from './logic/shortcuts';
import { useShortcuts } from './useShortcuts';

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
