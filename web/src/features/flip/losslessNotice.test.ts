import { describe, expect, it } from 'vitest';
import { isLossless, losslessNotice } from './losslessNotice';
import type { Reason } from './logic/lossless';
import en from './locales/en.json';

const file = { name: 'a.gif', width: 3, height: 2 };

describe('losslessNotice', () => {
  it('says nothing more than "lossless" for a still image, and counts an animation’s frames', () => {
    expect(losslessNotice({ done: true, trimmed: false, frames: 1, reencodedFrames: 0 }, 'png', file)).toBeUndefined();
    expect(losslessNotice({ done: true, trimmed: false, frames: 12, reencodedFrames: 0 }, 'gif', file)).toMatchObject({ key: 'lossless.frames', values: { frames: 12 } });
    expect(losslessNotice({ done: true, trimmed: true, frames: 1, reencodedFrames: 0 }, 'jpeg', file)).toMatchObject({ key: 'lossless.trimmed', values: { width: 3, height: 2 } });
  });

  it('says when an animation kept every frame but compressed its lossy ones again, which is not lossless', () => {
    const outcome = { done: true, trimmed: false, frames: 8, reencodedFrames: 3 } as const;
    expect(losslessNotice(outcome, 'webp', file)?.key).toBe('lossless.framesReencoded');
    expect(isLossless(outcome)).toBe(false);
    expect(isLossless({ ...outcome, reencodedFrames: 0 })).toBe(true);
    expect(isLossless({ done: false, reason: 'lossy' })).toBe(false);
    expect(isLossless(undefined)).toBe(false);
  });

  it('gives each reason its message, JPEG’s kinds by name and other formats’ in general words', () => {
    const key = (reason: Reason, format: 'jpeg' | 'gif') => losslessNotice({ done: false, reason }, format, file)?.key;
    expect(key('edges', 'jpeg')).toBe('lossless.fallback.edges');
    expect(key('unsupported', 'jpeg')).toBe('lossless.fallback.unsupported');
    expect(key('unsupported', 'gif')).toBe('lossless.fallback.format');
    expect(key('format', 'gif')).toBe('lossless.fallback.format');
    expect(key('damaged', 'gif')).toBe('lossless.fallback.damaged');
    expect(key('tooLarge', 'gif')).toBe('lossless.fallback.tooLarge');
    expect(losslessNotice({ done: false, reason: 'lossy' }, 'webp', file)?.key).toBe('lossless.fallback.lossy');
    expect(losslessNotice({ done: false, reason: 'format' }, 'gif', file)?.values.format).toBe('GIF');
    // Every key exists in the source locale (the others are checked against it).
    for (const reason of ['edges', 'unsupported', 'format', 'damaged', 'tooLarge', 'lossy'] as const) expect(en.lossless.fallback[reason]).toBeTruthy();
  });
});
