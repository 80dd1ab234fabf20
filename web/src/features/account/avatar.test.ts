import { describe, expect, it } from 'vitest';
import { avatarDataUrl, maxAvatarBytes } from './avatar';

describe('avatar encoding', () => {
  it('keeps the best quality that fits the server limit', () => {
    const tried: number[] = [];
    const url = avatarDataUrl((q) => {
      tried.push(q);
      return `data:image/jpeg;base64,${'A'.repeat(q > 0.7 ? maxAvatarBytes : 1000)}`;
    });
    expect(tried).toEqual([0.92, 0.85, 0.75, 0.6]);
    expect(url?.length).toBe('data:image/jpeg;base64,'.length + 1000);
  });

  it('gives up on what never fits or is not a JPEG', () => {
    expect(avatarDataUrl(() => `data:image/jpeg;base64,${'A'.repeat(maxAvatarBytes)}`)).toBeUndefined();
    expect(avatarDataUrl(() => 'data:image/png;base64,AAAA')).toBeUndefined(); // a browser without a JPEG encoder
  });
});
