// @vitest-environment node
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseTransformKey } from '../../../../../lib/image/transform';
import { flipPngLossless } from './index';
import { chunk, crc, encodePng, ihdr, palette, picture, random, SIGNATURE } from '../../../../../../test/features/flip/logic/lossless/png/testPngs';

const turn = parseTransformKey('r1')!;
const flip = (png: Uint8Array, maxPixels = 1e6) => flipPngLossless(png, turn, { maxPixels });
const refused = async (png: Uint8Array, reason = 'damaged') => expect(await flip(png)).toMatchObject({ ok: false, reason });

const good = encodePng(picture(12, 9, 8, 2, 1));
/** Where the (first) chunk of this type starts in the file. */
const at = (png: Buffer, type: string) => png.indexOf(Buffer.from(type, 'latin1')) - 4;

/** A PNG of this header and these raw (already filtered) rows. */
const raw = (rows: number[], width = 2, height = 2) => Buffer.concat([SIGNATURE, ihdr(width, height, 8, 0, false), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND')]);

describe('damaged and unusual PNGs give a reason, never an exception', () => {
  it('not a PNG, or empty', async () => {
    await refused(new Uint8Array(0));
    await refused(Buffer.from('GIF89a and some more bytes'));
  });

  it('a bad CRC', async () => {
    const png = Buffer.from(good);
    png[at(png, 'IDAT') + 10] ^= 1;
    const r = await flip(png);
    expect(r).toMatchObject({ ok: false, reason: 'damaged' });
    expect(!r.ok && r.detail).toContain('CRC');
  });

  it('cut short: inside the image data, and before IEND', async () => {
    await refused(good.subarray(0, at(good, 'IDAT') + 20));
    await refused(good.subarray(0, good.length - 12));
  });

  it('a length that runs past the end of the file', async () => {
    const png = Buffer.from(good);
    png.writeUInt32BE(0x7ffffff0, at(png, 'IDAT'));
    await refused(png);
  });

  it('image data that ends early, inside a valid zlib stream or with the stream cut', async () => {
    await refused(raw([0, 1, 2]));
    const stream = deflateSync(Buffer.from([0, 1, 2, 0, 3, 4]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('IDAT', stream.subarray(0, stream.length - 6)), chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('IDAT', Buffer.from('not zlib at all')), chunk('IEND')]));
  });

  it('a filter type that does not exist', async () => {
    await refused(raw([0, 1, 2, 5, 3, 4]));
  });

  it('headers the format does not allow, and a palette image without its palette', async () => {
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 16, 3, false), chunk('IDAT', deflateSync(Buffer.alloc(6))), chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(0, 2, 8, 0, false), chunk('IDAT', deflateSync(Buffer.alloc(2))), chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 3, false), chunk('IDAT', deflateSync(Buffer.alloc(6))), chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, chunk('IDAT', deflateSync(Buffer.alloc(6))), chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('IEND')]));
  });

  it('an unknown critical chunk is not something to copy blindly', async () => {
    const png = encodePng(picture(3, 3, 8, 0, 1), { before: [chunk('XYZW', Buffer.from('?'))] });
    await refused(png, 'unsupported');
  });

  it('APNG frames that do not fit the canvas, or data outside a frame', async () => {
    const actl = Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]);
    const fctl = (w: number, x: number) => {
      const d = Buffer.alloc(26);
      [0, w, 2, x, 0].forEach((v, i) => d.writeUInt32BE(v, i * 4));
      return chunk('fcTL', d);
    };
    const image = chunk('IDAT', deflateSync(Buffer.alloc(6)));
    const fdat = chunk('fdAT', Buffer.concat([Buffer.from([0, 0, 0, 1]), deflateSync(Buffer.alloc(6))]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('acTL', actl), image, fctl(2, 1), fdat, chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('acTL', actl), image, fdat, chunk('IEND')]));
    await refused(Buffer.concat([SIGNATURE, ihdr(2, 2, 8, 0, false), chunk('acTL', actl), image, fctl(2, 0), chunk('IEND')]));
  });

  it('past the pixel limit, refused before decoding; a crop outside the image', async () => {
    expect(await flip(good, 12 * 9 - 1)).toMatchObject({ ok: false, reason: 'tooLarge' });
    // A header claiming 2^31-1 squared pixels, with no data to speak of.
    const huge = Buffer.concat([SIGNATURE, ihdr(0x7fffffff, 0x7fffffff, 16, 6, false), chunk('IDAT', deflateSync(Buffer.alloc(9))), chunk('IEND')]);
    expect(await flipPngLossless(huge, turn, { maxPixels: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: false });
    for (const crop of [{ x: 0, y: 0, width: 13, height: 9 }, { x: -1, y: 0, width: 2, height: 2 }, { x: 0, y: 0, width: 0, height: 2 }, { x: 0.5, y: 0, width: 2, height: 2 }]) {
      expect(await flipPngLossless(good, turn, { maxPixels: 1e6, crop })).toMatchObject({ ok: false, reason: 'crop' });
    }
  });

  it('a thousand random changes (CRCs made right again, so that the changes reach the data) and cuts', async () => {
    const next = random(7);
    const inputs = [good, encodePng(picture(9, 7, 2, 3, 2), { palette: palette(4, 1), interlaced: true }), encodePng(picture(5, 6, 16, 6, 3), { interlaced: true })];
    let ok = 0;
    for (let n = 0; n < 1000; n++) {
      const png = Buffer.from(inputs[n % inputs.length]);
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) png[8 + Math.floor(next() * (png.length - 8))] = Math.floor(next() * 256);
      fixCrcs(png);
      const cut = next() < 0.2 ? png.subarray(0, Math.floor(next() * png.length)) : png;
      const r = await flip(cut);
      if (r.ok) ok++;
      else expect(['damaged', 'unsupported', 'tooLarge']).toContain(r.reason);
    }
    expect(ok).toBeGreaterThan(0);
  });
});

/** Recomputes every chunk's CRC in place, as far as the lengths allow. */
function fixCrcs(png: Buffer) {
  for (let p = 8; p + 12 <= png.length; ) {
    const length = png.readUInt32BE(p);
    if (p + 12 + length > png.length) return;
    png.writeUInt32BE(crc(png.subarray(p + 4, p + 8 + length)), p + 8 + length);
    p += 12 + length;
  }
}
