import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle, THROTTLE_MS } from './throttle';

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('is 16 ms by default', () => {
    expect(THROTTLE_MS).toBe(16);
  });

  it('calls at once, then once per 16 ms with the latest arguments', () => {
    const fn = vi.fn();
    const t = throttle(fn);
    t(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenLastCalledWith(1);
    t(2);
    t(3);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(15);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(3);
  });

  it('keeps at most one call per interval under a stream of calls, and never loses the last', () => {
    const fn = vi.fn();
    const t = throttle(fn, 16);
    for (let i = 0; i < 100; i++) {
      t(i);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(100);
    // 100 ms of calls: the first at once, then one every 16 ms, and the last one.
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(6);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(8);
    expect(fn).toHaveBeenLastCalledWith(99);
  });

  it('spaces calls at least 16 ms apart', () => {
    const at: number[] = [];
    const t = throttle(() => at.push(Date.now()));
    for (let i = 0; i < 50; i++) {
      t();
      vi.advanceTimersByTime(3);
    }
    vi.runAllTimers();
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(16);
  });

  it('calls at once again after a quiet interval', () => {
    const fn = vi.fn();
    const t = throttle(fn);
    t('a');
    vi.advanceTimersByTime(50);
    t('b');
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith('b');
  });

  it('cancels a pending call', () => {
    const fn = vi.fn();
    const t = throttle(fn);
    t(1);
    t(2);
    t.cancel();
    vi.runAllTimers();
    expect(fn).toHaveBeenCalledTimes(1);
    t.flush(); // nothing pending
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('flushes a pending call now', () => {
    const fn = vi.fn();
    const t = throttle(fn);
    t(1);
    t(2);
    t.flush();
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(2);
    vi.runAllTimers();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
