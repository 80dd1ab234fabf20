import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOverlayStore, overlayFadeMs } from './overlay';
import { createZIndexCounter } from './zIndex';

describe('overlay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const phase = (s: ReturnType<typeof createOverlayStore>) => s.get().phase;

  it('opens, then fades for 400 ms before it is gone', () => {
    const s = createOverlayStore(createZIndexCounter());
    expect(phase(s)).toBe('closed');
    s.open();
    expect(s.get()).toEqual({ phase: 'open', zIndex: 2000 });
    s.close();
    expect(phase(s)).toBe('closing');
    vi.advanceTimersByTime(overlayFadeMs - 1);
    expect(phase(s)).toBe('closing');
    vi.advanceTimersByTime(1);
    expect(phase(s)).toBe('closed');
    expect(overlayFadeMs).toBe(400);
  });

  it('stays open until the last of overlapping opens closes', () => {
    const s = createOverlayStore(createZIndexCounter());
    s.open();
    s.open();
    s.close();
    expect(phase(s)).toBe('open');
    s.close();
    expect(phase(s)).toBe('closing');
  });

  it('reopens during the fade without a new z-index, and the old fade does not close it', () => {
    const s = createOverlayStore(createZIndexCounter());
    s.open();
    s.close();
    s.open();
    expect(s.get()).toEqual({ phase: 'open', zIndex: 2000 });
    vi.advanceTimersByTime(overlayFadeMs * 2);
    expect(phase(s)).toBe('open');
  });

  it('takes a new z-index each time it opens from closed', () => {
    const s = createOverlayStore(createZIndexCounter());
    s.open();
    s.close();
    vi.runAllTimers();
    s.open();
    expect(s.get().zIndex).toBe(2001);
  });

  it('ignores a close without an open', () => {
    const s = createOverlayStore(createZIndexCounter());
    s.close();
    expect(phase(s)).toBe('closed');
    s.open();
    expect(phase(s)).toBe('open');
  });

  it('tells subscribers of each change, with a new snapshot each time', () => {
    const s = createOverlayStore(createZIndexCounter());
    const seen: string[] = [];
    const off = s.subscribe(() => seen.push(phase(s)));
    const before = s.get();
    s.open();
    s.open(); // no change: no call
    expect(s.get()).not.toBe(before);
    s.close();
    s.close();
    vi.runAllTimers();
    off();
    s.open();
    expect(seen).toEqual(['open', 'closing', 'closed']);
  });
});
