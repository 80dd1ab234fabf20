import { describe, expect, it } from 'vitest';
import { preloadAllowed } from './connection';
import { createPreloader } from './preload';

describe('preloader', () => {
  it('runs at most 4 at a time, each key once', async () => {
    const p = createPreloader(4);
    let active = 0;
    let peak = 0;
    const resolvers: Array<() => void> = [];
    const task = () =>
      new Promise<void>((r) => {
        active++;
        peak = Math.max(peak, active);
        resolvers.push(() => {
          active--;
          r();
        });
      });
    for (let i = 0; i < 10; i++) p.preload(`/p${i}`, task);
    p.preload('/p0', task);
    expect(p.running).toBe(4);
    expect(p.queued).toBe(6);
    while (resolvers.length) {
      resolvers.shift()!();
      await new Promise((r) => setTimeout(r));
    }
    expect(peak).toBe(4);
    expect(p.running).toBe(0);
  });

  it('is off on saveData and 2g', () => {
    expect(preloadAllowed({ effectiveType: '4g' })).toBe(true);
    expect(preloadAllowed({})).toBe(true);
    expect(preloadAllowed({ saveData: true, effectiveType: '4g' })).toBe(false);
    expect(preloadAllowed({ effectiveType: '2g' })).toBe(false);
    expect(preloadAllowed({ effectiveType: 'slow-2g' })).toBe(false);
  });
});
