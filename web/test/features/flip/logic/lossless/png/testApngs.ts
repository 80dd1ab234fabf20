// Test APNGs: written here from pictures (testPngs.ts's encoder), and read back frame by frame
// with pngjs (each frame's data made into a PNG of its own) and composited as the APNG
// specification says, so that a rewritten animation can be compared with the original shown
// through the same crop and transform, frame by frame as a viewer would show it.
import { outputSize, type Transform } from '../../../../../../src/lib/image/transform';
import { chunk, chunks, decode, ihdr, imageData, rearranged, SIGNATURE, type Decoded, type Picture, type Rect } from './testPngs';

export interface TestFrame {
  picture: Picture;
  x: number;
  y: number;
  delay: [number, number];
  dispose: 0 | 1 | 2;
  blend: 0 | 1;
}

export interface ApngOptions {
  width: number;
  height: number;
  plays: number;
  frames: TestFrame[];
  /** The still image when it is not the first frame (browsers without APNG show it). */
  hidden?: Picture;
  palette?: Uint8Array;
  transparency?: Uint8Array;
  interlaced?: boolean;
}

function control(sequence: number, f: TestFrame): Buffer {
  const d = Buffer.alloc(26);
  [sequence, f.picture.width, f.picture.height, f.x, f.y].forEach((v, i) => d.writeUInt32BE(v, i * 4));
  d.writeUInt16BE(f.delay[0], 20);
  d.writeUInt16BE(f.delay[1], 22);
  d.set([f.dispose, f.blend], 24);
  return chunk('fcTL', d);
}

export function encodeApng(o: ApngOptions): Buffer {
  const p = o.frames[0].picture;
  const interlaced = o.interlaced ?? false;
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(o.frames.length, 0);
  actl.writeUInt32BE(o.plays, 4);
  const out: Buffer[] = [SIGNATURE, ihdr(o.width, o.height, p.depth, p.colourType, interlaced), chunk('acTL', actl)];
  if (o.palette) out.push(chunk('PLTE', o.palette));
  if (o.transparency) out.push(chunk('tRNS', o.transparency));
  let sequence = 0;
  if (o.hidden) out.push(chunk('IDAT', imageData(o.hidden, interlaced)));
  o.frames.forEach((f, n) => {
    out.push(control(sequence++, f));
    const data = imageData(f.picture, interlaced, n + 2);
    if (n === 0 && !o.hidden) {
      out.push(chunk('IDAT', data.subarray(0, 10)), chunk('IDAT', data.subarray(10)));
      return;
    }
    // Two fdATs a frame, to check that a frame's data is read across chunks.
    for (const part of [data.subarray(0, 7), data.subarray(7)]) {
      const d = Buffer.alloc(4 + part.length);
      d.writeUInt32BE(sequence++, 0);
      part.copy(d, 4);
      out.push(chunk('fdAT', d));
    }
  });
  out.push(chunk('IEND'));
  return Buffer.concat(out);
}

export interface ReadFrame {
  sequence: number;
  rect: Rect;
  delay: [number, number];
  dispose: number;
  blend: number;
  image: Decoded;
}

/** The frames of an APNG in order, each decoded by pngjs, and the loop count. */
export function readApng(apng: Uint8Array): { frames: ReadFrame[]; plays: number; count: number; sequences: number[] } {
  const all = chunks(apng);
  const head = all[0].data;
  const interlaced = head[12] === 1;
  const shared = all.filter((c) => c.type === 'PLTE' || c.type === 'tRNS').map((c) => chunk(c.type, c.data));
  const actl = all.find((c) => c.type === 'acTL')!.data;
  const frames: ReadFrame[] = [];
  const sequences: number[] = [];
  let data: Buffer[] = [];
  let current: Omit<ReadFrame, 'image'> | undefined;
  const close = () => {
    if (!current) return;
    const png = Buffer.concat([SIGNATURE, ihdr(current.rect.width, current.rect.height, head[8], head[9], interlaced), ...shared, chunk('IDAT', Buffer.concat(data)), chunk('IEND')]);
    frames.push({ ...current, image: decode(png) });
    current = undefined;
    data = [];
  };
  for (const c of all) {
    if (c.type === 'fcTL') {
      close();
      const d = c.data;
      sequences.push(d.readUInt32BE(0));
      current = {
        sequence: d.readUInt32BE(0),
        rect: { width: d.readUInt32BE(4), height: d.readUInt32BE(8), x: d.readUInt32BE(12), y: d.readUInt32BE(16) },
        delay: [d.readUInt16BE(20), d.readUInt16BE(22)],
        dispose: d[24],
        blend: d[25],
      };
    } else if (c.type === 'IDAT' && current) {
      data.push(c.data);
    } else if (c.type === 'fdAT') {
      sequences.push(c.data.readUInt32BE(0));
      data.push(c.data.subarray(4));
    } else if (c.type !== 'IDAT') {
      close();
    }
  }
  return { frames, plays: actl.readUInt32BE(4), count: actl.readUInt32BE(0), sequences };
}

/** The canvas as shown during each frame (RGBA, as pngjs gives the samples), per the APNG spec. */
export function composite(width: number, height: number, frames: readonly ReadFrame[], max: number): Decoded[] {
  const canvas = new Array<number>(width * height * 4).fill(0);
  const shown: Decoded[] = [];
  const each = (r: Rect, f: (at: number, x: number, y: number) => void) => {
    for (let y = 0; y < r.height; y++) for (let x = 0; x < r.width; x++) f(((r.y + y) * width + r.x + x) * 4, x, y);
  };
  for (const f of frames) {
    const saved = f.dispose === 2 ? canvas.slice() : undefined;
    each(f.rect, (at, x, y) => {
      const from = (y * f.rect.width + x) * 4;
      const src = [0, 1, 2, 3].map((c) => f.image.data[from + c]);
      const a = src[3];
      if (f.blend === 0 || a === max) {
        for (let c = 0; c < 4; c++) canvas[at + c] = src[c];
      } else if (a > 0) {
        // Over, in exact fractions rounded once: the same sums on either side of a flip.
        const da = canvas[at + 3];
        const outA = a + (da * (max - a)) / max;
        for (let c = 0; c < 3; c++) canvas[at + c] = Math.round((src[c] * a + (canvas[at + c] * da * (max - a)) / max) / outA);
        canvas[at + 3] = Math.round(outA);
      }
    });
    shown.push({ width, height, data: canvas.slice() });
    if (f.dispose === 1) each(f.rect, (at) => canvas.fill(0, at, at + 4));
    if (saved) each(f.rect, (at) => { for (let c = 0; c < 4; c++) canvas[at + c] = saved[at + c]; });
  }
  return shown;
}

/** What the original shows through the crop and transform, frame by frame. */
export function expectedFrames(apng: Uint8Array, t: Transform, crop: Rect | undefined, max: number): Decoded[] {
  const head = chunks(apng)[0].data;
  const width = head.readUInt32BE(0);
  const height = head.readUInt32BE(4);
  return composite(width, height, readApng(apng).frames, max).map((d) => rearranged(d, t, crop));
}

export function shownFrames(apng: Uint8Array, max: number): Decoded[] {
  const head = chunks(apng)[0].data;
  return composite(head.readUInt32BE(0), head.readUInt32BE(4), readApng(apng).frames, max);
}

export function size(t: Transform, crop: Rect): { width: number; height: number } {
  return outputSize(t, crop.width, crop.height);
}
