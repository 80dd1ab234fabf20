import { describe, expect, it } from 'vitest';
import { formatBytes, storageView } from './storage';

describe('storage', () => {
  it('writes bytes in kB or MB in the page language', () => {
    expect(formatBytes(850_000, 'en')).toBe('850 kB');
    expect(formatBytes(12_345_678, 'en')).toBe('12.3 MB');
    expect(formatBytes(12_345_678, 'de')).toBe('12,3 MB');
  });

  it('gives the share of the quota used, capped at full, and none without a quota', () => {
    expect(storageView({ used: 16_000_000, quota: 64_000_000 }, 'en')).toEqual({ used: '16 MB', quota: '64 MB', fraction: 0.25 });
    expect(storageView({ used: 70_000_000, quota: 64_000_000 }, 'en').fraction).toBe(1);
    expect(storageView({ used: 5_000, quota: 0 }, 'en')).toEqual({ used: '5 kB' });
  });
});
