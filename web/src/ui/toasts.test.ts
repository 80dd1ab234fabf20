import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, defaultToastDuration } from './toasts';
import { createZIndexCounter } from './zIndex';

const store = () => createToastStore(createZIndexCounter());
const messages = (s: ReturnType<typeof store>) => s.get().map((t) => t.message);

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is info for 3000 ms by default', () => {
    const s = store();
    s.show('Saved');
    expect(s.get()).toEqual([{ id: 1, message: 'Saved', type: 'info', zIndex: 2000 }]);
    expect(defaultToastDuration).toBe(3000);
    vi.advanceTimersByTime(2999);
    expect(messages(s)).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(messages(s)).toEqual([]);
  });

  it('takes a type and a duration; 0 stays until closed', () => {
    const s = store();
    s.show('Quick', { type: 'success', duration: 500 });
    const stay = s.show('Stays', { type: 'error', duration: 0 });
    expect(s.get().map((t) => t.type)).toEqual(['success', 'error']);
    vi.advanceTimersByTime(500);
    expect(messages(s)).toEqual(['Stays']);
    vi.advanceTimersByTime(60_000);
    expect(messages(s)).toEqual(['Stays']);
    s.close(stay);
    expect(messages(s)).toEqual([]);
  });

  it('stacks oldest first, each above the one before', () => {
    const s = store();
    s.show('a');
    vi.advanceTimersByTime(1000);
    s.show('b', { type: 'warning' });
    s.show('c');
    expect(messages(s)).toEqual(['a', 'b', 'c']);
    expect(s.get().map((t) => t.zIndex)).toEqual([2000, 2001, 2002]);
    vi.advanceTimersByTime(2000);
    expect(messages(s)).toEqual(['b', 'c']);
  });

  it('closes by id, and the newest on request', () => {
    const s = store();
    const a = s.show('a');
    s.show('b');
    s.show('c');
    s.close(a);
    expect(messages(s)).toEqual(['b', 'c']);
    expect(s.closeNewest()).toBe(true);
    expect(messages(s)).toEqual(['b']);
    s.close(a); // already closed: nothing happens
    s.closeNewest();
    expect(s.closeNewest()).toBe(false);
  });

  it('holds the timer while paused and resumes with the time that was left', () => {
    const s = store();
    const id = s.show('Read me');
    vi.advanceTimersByTime(1000);
    s.pause(id);
    vi.advanceTimersByTime(10_000);
    expect(messages(s)).toEqual(['Read me']);
    s.resume(id);
    vi.advanceTimersByTime(1999);
    expect(messages(s)).toEqual(['Read me']);
    vi.advanceTimersByTime(1);
    expect(messages(s)).toEqual([]);
  });

  it('runs again only when neither hover nor focus holds it', () => {
    const s = store();
    const id = s.show('Held');
    s.pause(id, 'hover');
    s.pause(id, 'focus');
    s.pause(id, 'hover'); // repeated: harmless
    s.resume(id, 'hover');
    vi.advanceTimersByTime(5000);
    expect(messages(s)).toEqual(['Held']);
    s.resume(id, 'focus');
    vi.advanceTimersByTime(3000);
    expect(messages(s)).toEqual([]);
  });

  it('ignores a resume without a pause, and pauses of closed toasts', () => {
    const s = store();
    const id = s.show('x');
    s.resume(id);
    vi.advanceTimersByTime(1000);
    s.resume(id, 'focus');
    vi.advanceTimersByTime(2000);
    expect(messages(s)).toEqual([]);
    s.pause(id);
    s.resume(id);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells subscribers, and a closed toast leaves no timer behind', () => {
    const s = store();
    const calls = vi.fn();
    s.subscribe(calls);
    const id = s.show('x');
    s.close(id);
    expect(calls).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
