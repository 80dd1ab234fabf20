import { describe, expect, it } from 'vitest';
import { CACHE_UNLIMITED, defaultSettings, validateSettings } from './settings';

describe('validateSettings', () => {
  it('fills the defaults', () => {
    expect(validateSettings()).toEqual(defaultSettings);
  });

  it.each([
    [{ cacheSizeBytes: 1_048_575 }, 'cacheSizeBytes must be at least 1048576'],
    [{ cacheSizeBytes: NaN }, 'cacheSizeBytes'],
    [{ cacheSizeBytes: -2 }, 'cacheSizeBytes'],
    [{ longPollTimeoutSeconds: 4.9 }, 'between 5 and 30'],
    [{ longPollTimeoutSeconds: 31 }, 'between 5 and 30'],
    [{ longPollTimeoutSeconds: NaN }, 'between 5 and 30'],
  ])('refuses %o', (s, message) => {
    expect(() => validateSettings(s)).toThrow(message);
  });

  it.each([{ cacheSizeBytes: 1_048_576 }, { cacheSizeBytes: CACHE_UNLIMITED }, { longPollTimeoutSeconds: 5 }, { longPollTimeoutSeconds: 30 }])(
    'takes the valid neighbour %o',
    (s) => {
      expect(validateSettings(s)).toMatchObject(s);
    },
  );
});
