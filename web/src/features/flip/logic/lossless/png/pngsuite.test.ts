// @vitest-environment node
// The PngSuite (Willem van Schaik's test images, free to redistribute; web/test/.../pngsuite/):
// every valid file turned and flipped, compared with pngjs's decoding of the original, never
// much larger than it; its damaged files (x*.png) refused with a reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTransformKey, transformKey } from '../../../../../lib/image/transform';
import { flipPngLossless } from './index';
import { decode, rearranged, same } from '../../../../../../test/features/flip/logic/lossless/png/testPngs';

const dir = join(__dirname, '../../../../../../test/features/flip/logic/lossless/png/pngsuite');
const files = readdirSync(dir).filter((f) => f.endsWith('.png'));
const all = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);

// The largest output against its input over the suite (measured: 1.39, s38n3p04.png turned a
// quarter: 245 bytes of a 38×38 4-bit pattern whose columns compress worse than its rows).
// Larger, photo-like files stay within 1.08 (ImageMagick's, at every type and depth).
const WORST_RATIO = 1.4;

describe('the PngSuite', () => {
  it('holds the suite', () => expect(files.length).toBeGreaterThan(150));

  it('every valid file, every transform, sample for sample; the output never much larger', async () => {
    let worst = { ratio: 0, file: '' };
    for (const file of files.filter((f) => !f.startsWith('x'))) {
      const png = readFileSync(join(dir, file));
      const input = decode(png);
      for (const t of all) {
        const r = await flipPngLossless(png, t, { maxPixels: 1e6 });
        if (!r.ok) throw new Error(`${file} ${transformKey(t)}: ${r.reason}: ${r.detail}`);
        expect(same(decode(r.bytes), rearranged(input, t)), `${file} ${transformKey(t)}`).toBe(true);
        if (r.bytes.length / png.length > worst.ratio) worst = { ratio: r.bytes.length / png.length, file };
      }
    }
    expect(worst.ratio, worst.file).toBeLessThanOrEqual(WORST_RATIO);
  });

  it('every damaged file refused with a reason', async () => {
    for (const file of files.filter((f) => f.startsWith('x'))) {
      const r = await flipPngLossless(readFileSync(join(dir, file)), all[1], { maxPixels: 1e6 });
      expect(r.ok, file).toBe(false);
    }
  });
});
