// @vitest-environment node
// The dispatch: which formats go to a rewriter (and with a crop or not), and each rewriter's
// refusals in the page's few reasons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identity, parseTransformKey } from '../../../../lib/image/transform';
import { hasRewriter, rewritable, rewrite, type Job } from '.';

const corpus = join(import.meta.dirname, '../../../../../test/features/flip/logic/lossless/gif/corpus');
const ball = new Uint8Array(readFileSync(join(corpus, 'ball.gif')));
const flipH = parseTransformKey('r0m')!;
const job = (bytes: Uint8Array, more: Partial<Job> = {}): Job => ({ bytes, transform: flipH, edges: 'trim', maxPixels: 1e8, quality: 0.92, ...more });

describe('hasRewriter', () => {
  it('sends JPEG uncropped only, PNG, GIF, WebP and BMP cropped or not, and the rest to the canvas', () => {
    expect(hasRewriter('jpeg', false)).toBe(true);
    expect(hasRewriter('jpeg', true)).toBe(false);
    expect(hasRewriter('gif', false)).toBe(true);
    expect(hasRewriter('gif', true)).toBe(true);
    for (const f of ['png', 'webp', 'bmp'] as const) expect(hasRewriter(f, true), f).toBe(true);
    for (const f of ['avif', 'heic', 'svg'] as const) expect(hasRewriter(f, false), f).toBe(false);
    expect(rewritable.sort()).toEqual(['bmp', 'gif', 'jpeg', 'png', 'webp']);
  });
});

describe('rewrite', () => {
  it('loads the format’s rewriter and keeps every frame of an animation', async () => {
    const r = await rewrite('gif', job(ball));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frames).toBeGreaterThan(1);
    expect(r.trimmed).toBe(false);
    expect([r.width, r.height]).toEqual([ball[6] | (ball[7] << 8), ball[8] | (ball[9] << 8)]);
    expect(Array.from(r.bytes.subarray(0, 6), (c) => String.fromCharCode(c)).join('')).toMatch(/^GIF8[79]a$/);
  });

  it('crops a GIF', async () => {
    const r = await rewrite('gif', job(ball, { crop: { x: 2, y: 3, width: 10, height: 7 }, transform: parseTransformKey('r1')! }));
    expect(r.ok && [r.width, r.height]).toEqual([7, 10]);
  });

  it('maps each refusal to a reason the page has words for', async () => {
    const cut = await rewrite('gif', job(ball.subarray(0, ball.length >> 1)));
    expect(cut).toMatchObject({ ok: false, reason: 'damaged' });
    const big = await rewrite('gif', job(ball, { maxPixels: 10 }));
    expect(big).toMatchObject({ ok: false, reason: 'tooLarge' });
    const outside = await rewrite('gif', job(ball, { crop: { x: 0, y: 0, width: 1e4, height: 1 } }));
    expect(outside).toMatchObject({ ok: false, reason: 'format' });
    const notJpeg = await rewrite('jpeg', job(ball));
    expect(notJpeg).toMatchObject({ ok: false, reason: 'damaged' });
  });

  it('refuses what has no rewriter, or a crop a rewriter does not take, without loading anything', async () => {
    expect(await rewrite('avif', job(ball))).toMatchObject({ ok: false, reason: 'format' });
    expect(await rewrite('jpeg', job(ball, { crop: { x: 0, y: 0, width: 1, height: 1 }, transform: identity }))).toMatchObject({ ok: false, reason: 'format' });
  });
});
