import { describe, expect, it } from 'vitest';
import { losslessNotice } from './losslessNotice';
import type { Reason } from './logic/lossless';
import en from './locales/en.json';

const file = { name: 'a.gif', width: 3, height: 2 };

describe('losslessNotice', () => {
  it('says nothing more than "lossless" for a still image, and counts an animation’s frames', () => {
    expect(losslessNotice({ done: true, trimmed: false, frames: 1 }, 'png', file)).toBeUndefined();
    expect(losslessNotice({ done: true, trimmed: false, frames: 12 }, 'gif', file)).toMatchObject({ key: 'lossless.frames', values: { frames: 12 } });
    expect(losslessNotice({ done: true, trimmed: true, frames: 1 }, 'jpeg', file)).toMatchObject({ key: 'lossless.trimmed', values: { width: 3, height: 2 } });
  });

  it('gives each reason its message, JPEG’s kinds by name and other formats’ in general words', () => {
    const key = (reason: Reason, format: 'jpeg' | 'gif') => losslessNotice({ done: false, reason }, format, file)?.key;
    expect(key('edges', 'jpeg')).toBe('lossless.fallback.edges');
    expect(key('unsupported', 'jpeg')).toBe('lossless.fallback.unsupported');
    expect(key('unsupported', 'gif')).toBe('lossless.fallback.format');
    expect(key('format', 'gif')).toBe('lossless.fallback.format');
    expect(key('damaged', 'gif')).toBe('lossless.fallback.damaged');
    expect(key('tooLarge', 'gif')).toBe('lossless.fallback.tooLarge');
    expect(losslessNotice({ done: false, reason: 'format' }, 'gif', file)?.values.format).toBe('GIF');
    // Every key exists in the source locale (the others are checked against it).
    for (const reason of ['edges', 'unsupported', 'format', 'damaged', 'tooLarge'] as const) expect(en.lossless.fallback[reason]).toBeTruthy();
  });
});
