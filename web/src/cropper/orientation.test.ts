import { describe, expect, it } from 'vitest';
import { orientationMatrix, orientedSize, readOrientation, withOrientation, type Orientation } from './orientation';
import { draw, grid, mirror, turns } from './testGrid';

// ---- JPEG headers made here: SOI, optional APP0 (JFIF), APP1 (Exif + TIFF IFD0), SOS. ----

interface Entry {
  tag: number;
  type: number;
  count: number;
  value: number;
}

function tiff(entries: Entry[], le: boolean, ifdOffset = 8): number[] {
  const out: number[] = [];
  const u16 = (v: number) => (le ? out.push(v & 0xff, v >> 8) : out.push(v >> 8, v & 0xff));
  const u32 = (v: number) => (le ? out.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24) : out.push(v >>> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff));
  out.push(...(le ? [0x49, 0x49] : [0x4d, 0x4d]));
  u16(42);
  u32(ifdOffset);
  while (out.length < ifdOffset) out.push(0);
  u16(entries.length);
  for (const e of entries) {
    u16(e.tag);
    u16(e.type);
    u32(e.count);
    if (e.type === 3) {
      u16(e.value);
      u16(0);
    } else u32(e.value);
  }
  u32(0); // no next IFD
  return out;
}

function segment(marker: number, body: number[]): number[] {
  const len = body.length + 2;
  return [0xff, marker, len >> 8, len & 0xff, ...body];
}

const EXIF = [0x45, 0x78, 0x69, 0x66, 0, 0];
const JFIF = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const SCAN = [...segment(0xda, [1, 1, 0, 0, 0x3f, 0]), 0x12, 0x34, 0xff, 0xd9];
const OTHERS: Entry[] = [
  { tag: 0x010f, type: 2, count: 4, value: 0x41424300 }, // Make, inline ASCII
  { tag: 0x0110, type: 2, count: 4, value: 0x44454600 },
];

function jpeg(o: number | undefined, opts: { le?: boolean; jfif?: boolean; before?: number[][]; type?: number } = {}): Uint8Array {
  const le = opts.le ?? true;
  const entries = [...OTHERS];
  if (o !== undefined) entries.push({ tag: 0x0112, type: opts.type ?? 3, count: 1, value: o });
  entries.push({ tag: 0x011a, type: 5, count: 1, value: 0 });
  const app1 = segment(0xe1, [...EXIF, ...tiff(entries, le)]);
  return new Uint8Array([0xff, 0xd8, ...(opts.jfif ? JFIF : []), ...(opts.before ?? []).flat(), ...app1, ...SCAN]);
}

const ALL: Orientation[] = [1, 2, 3, 4, 5, 6, 7, 8];

describe('reading the orientation', () => {
  it.each(ALL)('reads orientation %i, little and big endian, after a JFIF header or not', (o) => {
    for (const le of [true, false]) {
      for (const jfif of [true, false]) {
        const bytes = jpeg(o, { le, jfif });
        const tag = readOrientation(bytes);
        expect(tag.orientation).toBe(o);
        expect(tag.littleEndian).toBe(le);
        const at = tag.offset!;
        expect(le ? bytes[at] : bytes[at + 1]).toBe(o);
      }
    }
  });

  it('finds it after other APP segments (an XMP APP1, an ICC APP2) and fill bytes', () => {
    const xmp = segment(0xe1, [...'http://ns.adobe.com/xap/1.0/\0'].map((c) => c.charCodeAt(0)));
    const icc = segment(0xe2, new Array(300).fill(7));
    const bytes = jpeg(6, { before: [xmp, icc, [0xff]] });
    expect(readOrientation(bytes).orientation).toBe(6);
  });

  it('is upright without a tag, without Exif, or for other formats', () => {
    expect(readOrientation(jpeg(undefined))).toEqual({ orientation: 1 });
    expect(readOrientation(new Uint8Array([0xff, 0xd8, ...JFIF, ...SCAN]))).toEqual({ orientation: 1 });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(readOrientation(png)).toEqual({ orientation: 1 });
    expect(readOrientation(new Uint8Array())).toEqual({ orientation: 1 });
  });

  it('ignores invalid values and types', () => {
    for (const v of [0, 9, 255, 0x0600]) expect(readOrientation(jpeg(v)).orientation).toBe(1);
    expect(readOrientation(jpeg(6, { type: 4 })).orientation).toBe(1); // LONG, not SHORT
  });

  it('stops at the image data: a tag after SOS is not metadata', () => {
    const late = new Uint8Array([0xff, 0xd8, ...SCAN.slice(0, -2), ...jpeg(6).slice(2)]);
    expect(readOrientation(late).orientation).toBe(1);
  });

  it('never throws on damaged or cut files', () => {
    const whole = jpeg(8, { jfif: true });
    for (let n = 0; n <= whole.length; n++) {
      const tag = readOrientation(whole.slice(0, n));
      expect([1, 8]).toContain(tag.orientation);
    }
    // A garbage IFD offset, a huge entry count, a zero length.
    const bad = jpeg(6);
    const tiffStart = bad.indexOf(0x49); // "II"
    const copy = bad.slice();
    copy[tiffStart + 4] = 0xff;
    copy[tiffStart + 5] = 0xff;
    expect(readOrientation(copy).orientation).toBe(1);
    const many = bad.slice();
    many[tiffStart + 8] = 0xff;
    many[tiffStart + 9] = 0xff;
    expect(() => readOrientation(many)).not.toThrow();
    expect(readOrientation(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, 0]))).toEqual({ orientation: 1 });
    // Random bytes after a JPEG start.
    let seed = 1;
    for (let i = 0; i < 200; i++) {
      const junk = new Uint8Array(64).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
      junk[0] = 0xff;
      junk[1] = 0xd8;
      expect(() => readOrientation(junk)).not.toThrow();
    }
  });

  it('reads from a view into a larger buffer', () => {
    const bytes = jpeg(5, { le: false });
    const big = new Uint8Array(bytes.length + 10);
    big.set(bytes, 10);
    expect(readOrientation(big.subarray(10)).orientation).toBe(5);
  });
});

describe('rewriting the orientation', () => {
  it.each(ALL)('sets orientation %i to 1 in a copy, both byte orders', (o) => {
    for (const le of [true, false]) {
      const bytes = jpeg(o, { le });
      const fixed = withOrientation(bytes, readOrientation(bytes), 1);
      expect(readOrientation(fixed).orientation).toBe(1);
      expect(readOrientation(fixed).offset).toBe(readOrientation(bytes).offset);
      expect(readOrientation(bytes).orientation).toBe(o); // the original is untouched
      expect(fixed.length).toBe(bytes.length);
      expect([...fixed].filter((b, i) => b !== bytes[i]).length).toBeLessThanOrEqual(1);
    }
  });

  it('copies without a tag', () => {
    const bytes = jpeg(undefined);
    expect(withOrientation(bytes, readOrientation(bytes), 1)).toEqual(bytes);
  });
});

describe('turning stored pixels upright', () => {
  // What each orientation means, in the EXIF standard's words: how to turn the stored image.
  const upright: Record<Orientation, (g: string[][]) => string[][]> = {
    1: (g) => g,
    2: (g) => mirror(g), // mirror horizontal
    3: (g) => turns(g, 2), // rotate 180
    4: (g) => turns(mirror(g), 2), // mirror vertical
    5: (g) => turns(mirror(g), 3), // mirror horizontal and rotate 270 CW
    6: (g) => turns(g, 1), // rotate 90 CW
    7: (g) => turns(mirror(g), 1), // mirror horizontal and rotate 90 CW
    8: (g) => turns(g, 3), // rotate 270 CW
  };

  it.each(ALL)('orientation %i, pixel for pixel on a 3 × 2 image', (o) => {
    const stored = { width: 3, height: 2 };
    const size = orientedSize(o, stored);
    const expected = upright[o](grid(3, 2));
    expect(size).toEqual({ width: expected[0]!.length, height: expected.length });
    expect(draw(grid(3, 2), orientationMatrix(o, stored), size.width, size.height)).toEqual(expected);
  });
});
