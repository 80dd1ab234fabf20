// @vitest-environment node
// GIFs written by ImageMagick (web/test/features/flip/logic/lossless/gif/corpus/make.sh):
// optimised frames at offsets with transparency, interlaced frames with tables of their own,
// "restore to previous", a GIF87a and a 256-colour still; and two of them transformed by
// gifsicle, a second opinion on where each frame goes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTransformKey, type Transform } from '../../../../../lib/image/transform';
import { expectLossless, flipped, show, type ShownFrame } from '../../../../../../test/features/flip/logic/lossless/gif/testGifs';

const dir = join(import.meta.dirname, '../../../../../../test/features/flip/logic/lossless/gif/corpus');
const files = readdirSync(dir).filter((f) => f.endsWith('.gif'));
const all: Transform[] = ['r0', 'r0m', 'r1', 'r1m', 'r2', 'r2m', 'r3', 'r3m'].map((k) => parseTransformKey(k)!);

describe('lossless GIF on files ImageMagick wrote', () => {
  it('has the corpus', () => {
    expect(files.length).toBe(5);
  });

  for (const file of files) {
    it(file, () => {
      const input = new Uint8Array(readFileSync(join(dir, file)));
      const [width, height] = [input[6] | (input[7] << 8), input[8] | (input[9] << 8)];
      for (const t of all) {
        const out = expectLossless(input, t);
        // The same LZW as the encoder that wrote the file: within a few per cent of its size.
        expect(out.length, `${file} ${t.turns}${t.mirror ? 'm' : ''}`).toBeLessThanOrEqual(Math.ceil(input.length * 1.05) + 16);
        expectLossless(input, t, { x: 3, y: Math.floor(height / 3), width: Math.floor(width / 2), height: Math.floor(height / 2) });
      }
    });
  }
});

/** A frame but its pixels and its interlacing (gifsicle keeps frames interlaced; ours never are). */
const fields = ({ layer: _, interlaced: __, ...rest }: ShownFrame) => rest;

describe('lossless GIF against gifsicle', () => {
  for (const [file, key] of [
    ['ball.gif', 'r1'],
    ['plasma-interlaced.gif', 'r2m'],
  ]) {
    it(`${file} ${key}`, () => {
      const ours = show(flipped(new Uint8Array(readFileSync(join(dir, file))), parseTransformKey(key)!).bytes);
      const theirs = show(new Uint8Array(readFileSync(join(dir, 'gifsicle', file.replace('.gif', `-${key}.gif`)))));
      expect(ours.frames.length).toBe(theirs.frames.length);
      ours.frames.forEach((a, i) => {
        expect(fields(a), `frame ${i + 1}`).toEqual(fields(theirs.frames[i]));
        expect(Buffer.from(a.layer.data.buffer).equals(Buffer.from(theirs.frames[i].layer.data.buffer)), `frame ${i + 1}`).toBe(true);
      });
    });
  }
});
