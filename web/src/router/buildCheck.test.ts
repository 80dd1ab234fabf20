import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBuildCheck } from './buildCheck';

const reply = (id: string) => Promise.resolve(new Response(JSON.stringify({ id, timestamp: 1 })));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('build check', () => {
  it('checks first after a delay, then periodically, until a newer id appears', async () => {
    const fetch = vi.fn().mockImplementationOnce(() => reply('a')).mockImplementationOnce(() => reply('b'));
    const onOutdated = vi.fn();
    startBuildCheck({ buildId: 'a', onOutdated, firstDelayMs: 1000, intervalMs: 5000, fetch });
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toMatch(/^\/builds\/latest\.json\?\d+$/);
    expect(onOutdated).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(onOutdated).toHaveBeenCalledWith('b');
    await vi.advanceTimersByTimeAsync(50_000);
    expect(fetch).toHaveBeenCalledTimes(2); // nothing more to learn
  });

  it('skips the request on slow-2g connections', async () => {
    const fetch = vi.fn(() => reply('b'));
    startBuildCheck({ buildId: 'a', onOutdated: vi.fn(), firstDelayMs: 10, intervalMs: 10, fetch, effectiveType: () => 'slow-2g' });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('survives a failed check and stops when asked', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetch = vi.fn(() => Promise.reject(new Error('offline')));
    const stop = startBuildCheck({ buildId: 'a', onOutdated: vi.fn(), firstDelayMs: 10, intervalMs: 10, fetch });
    await vi.advanceTimersByTimeAsync(25);
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
