import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptRefusals, sessionNews } from './news';

describe('sessionNews', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the refusals heard before any handler connects, and tells them to the first', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const news = sessionNews();
    news.rejected('write 0: bad query');
    news.expired(); // nobody to tell: the session was never confirmed here
    const told: string[] = [];
    news.connect({ onExpired: () => told.push('expired'), onRejected: (r) => told.push(r) });
    expect(told).toEqual(['write 0: bad query']);
    news.rejected('write 1: bad title');
    news.expired();
    expect(told).toEqual(['write 0: bad query', 'write 1: bad title', 'expired']);
  });

  it('tells a handler connected later (a sign-in) only what came after, and keeps a bounded few', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const news = sessionNews();
    for (let i = 0; i < keptRefusals + 5; i++) news.rejected(`r${i}`);
    const first: string[] = [];
    news.connect({ onExpired: () => undefined, onRejected: (r) => first.push(r) });
    expect(first).toEqual(Array.from({ length: keptRefusals }, (_, i) => `r${i}`));
    const second: string[] = [];
    news.connect({ onExpired: () => undefined, onRejected: (r) => second.push(r) });
    news.rejected('after');
    expect(second).toEqual(['after']);
    expect(first).toHaveLength(keptRefusals);
  });
});
