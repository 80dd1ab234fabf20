import { describe, expect, it } from 'vitest';
import { hasGps, jpegOrientation, readExif, rewriteExif, withExif, withOrientation, type Orientation } from './exif';
import { apply, fromExifOrientation, identity } from './transform';

// EXIF made here: a small TIFF writer laying out IFDs and their out-of-line values in either
// byte order, and JPEGs around it.
const BYTE = 1;
const ASCII = 2;
const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const UNDEFINED = 7;

type Tag =
  | { tag: number; type: number; values: number[] }
  | { tag: number; ifd: Ifd }
  /** A LONG holding the offset of these bytes, written after the IFD (a thumbnail). */
  | { tag: number; blob: number[] };
interface Ifd {
  tags: Tag[];
  next?: Ifd;
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function tiff(le: boolean, ifd0: Ifd): Uint8Array {
  const out: number[] = [];
  const set = (at: number, v: number, n: 2 | 4) => {
    for (let i = 0; i < n; i++) out[at + (le ? i : n - 1 - i)] = (v >>> (8 * i)) & 0xff;
  };
  const encode = (type: number, values: number[]) => {
    const width = type === SHORT ? 2 : type === LONG || type === RATIONAL ? 4 : 1;
    const bytes: number[] = [];
    for (const v of values) {
      const start = bytes.length;
      bytes.length += width;
      for (let i = 0; i < width; i++) bytes[start + (le ? i : width - 1 - i)] = (v >>> (8 * i)) & 0xff;
    }
    return bytes;
  };
  const append = (bytes: number[]) => {
    const at = out.length;
    out.push(...bytes);
    if (out.length % 2) out.push(0); // values start on word boundaries
    return at;
  };
  const writeIfd = (ifd: Ifd): number => {
    const at = append(new Array<number>(2 + 12 * ifd.tags.length + 4).fill(0));
    set(at, ifd.tags.length, 2);
    const later: (() => void)[] = [];
    ifd.tags.forEach((t, i) => {
      const e = at + 2 + 12 * i;
      set(e, t.tag, 2);
      if ('ifd' in t || 'blob' in t) {
        set(e + 2, LONG, 2);
        set(e + 4, 1, 4);
        later.push(() => set(e + 8, 'ifd' in t ? writeIfd(t.ifd) : append(t.blob), 4));
        return;
      }
      const bytes = encode(t.type, t.values);
      set(e + 2, t.type, 2);
      set(e + 4, t.type === RATIONAL ? t.values.length / 2 : t.values.length, 4);
      if (bytes.length <= 4) bytes.forEach((b, k) => (out[e + 8 + k] = b));
      else set(e + 8, append(bytes), 4);
    });
    later.forEach((f) => f());
    if (ifd.next) set(at + 2 + 12 * ifd.tags.length, writeIfd(ifd.next), 4);
    return at;
  };
  out.push(...ascii(le ? 'II' : 'MM'), 0, 0, 0, 0, 0, 0);
  set(2, 42, 2);
  set(4, 8, 4);
  writeIfd(ifd0);
  return new Uint8Array(out);
}

const DATE = '2024:05:01 10:30:15\0';
const MAKER_NOTE = [0x4d, 0x4b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const LATITUDE = [52, 1, 31, 1, 1234, 100];
const THUMBNAIL = [0xff, 0xd8, 0xff, 0xdb, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x11, 0x22, 0x33, 0x44, 0x55, 0xff, 0xd9];

/** A camera's EXIF: make, orientation, an Exif IFD with maker note and interop, maybe GPS, and a thumbnail in IFD1. */
function cameraExif(le: boolean, { orientation = 1, gps = true, thumbnail = true } = {}): Uint8Array {
  const tags: Tag[] = [{ tag: 0x010f, type: ASCII, values: ascii('Camera\0') }];
  if (orientation !== undefined) tags.push({ tag: 0x0112, type: SHORT, values: [orientation] });
  tags.push(
    { tag: 0x011a, type: RATIONAL, values: [72, 1] },
    {
      tag: 0x8769,
      ifd: {
        tags: [
          { tag: 0x9003, type: ASCII, values: ascii(DATE) },
          { tag: 0x927c, type: UNDEFINED, values: MAKER_NOTE },
          { tag: 0xa005, ifd: { tags: [{ tag: 0x0001, type: ASCII, values: ascii('R98\0') }] } },
        ],
      },
    },
  );
  if (gps) {
    tags.push({
      tag: 0x8825,
      ifd: {
        tags: [
          { tag: 0x0000, type: BYTE, values: [2, 3, 0, 0] },
          { tag: 0x0001, type: ASCII, values: ascii('N\0') },
          { tag: 0x0002, type: RATIONAL, values: LATITUDE },
          { tag: 0x0003, type: ASCII, values: ascii('E\0') },
          { tag: 0x0004, type: RATIONAL, values: [13, 1, 24, 1, 5678, 100] },
        ],
      },
    });
  }
  const ifd1: Ifd = {
    tags: [
      { tag: 0x0103, type: SHORT, values: [6] },
      { tag: 0x0201, blob: THUMBNAIL },
      { tag: 0x0202, type: LONG, values: [THUMBNAIL.length] },
    ],
  };
  return tiff(le, { tags, next: thumbnail ? ifd1 : undefined });
}

function segment(marker: number, body: ArrayLike<number>): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >>> 8, length & 0xff, ...Array.from(body)];
}
const JFIF = segment(0xe0, [...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const IMAGE = [
  ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
  ...segment(0xc0, [8, 0, 2, 0, 3, 1, 1, 0x11, 0]),
  ...segment(0xda, [1, 1, 0, 0, 63, 0]),
  ...[0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd9],
];
const exifSegment = (t: Uint8Array) => segment(0xe1, [...ascii('Exif\0\0'), ...t]);

/** A JPEG as a camera writes it (APP1 Exif right after SOI), or as an editor does (after JFIF). */
function jpeg(exif?: Uint8Array, { jfif = false, xmp = false } = {}): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    ...(jfif ? JFIF : []),
    ...(exif ? exifSegment(exif) : []),
    ...(xmp ? segment(0xe1, ascii('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>')) : []),
    ...IMAGE,
  ]);
}

// A reader for the tests, to check what the rewritten structure holds.
function reader(t: Uint8Array) {
  const le = t[0] === 0x49;
  const u16 = (at: number) => (le ? t[at] | (t[at + 1] << 8) : (t[at] << 8) | t[at + 1]);
  const u32 = (at: number) => (le ? u16(at) + u16(at + 2) * 65536 : u16(at) * 65536 + u16(at + 2));
  const ifd = (at: number) => {
    const n = u16(at);
    const tags = new Map<number, { type: number; count: number; at: number }>();
    for (let i = 0; i < n; i++) {
      const e = at + 2 + 12 * i;
      tags.set(u16(e), { type: u16(e + 2), count: u32(e + 4), at: e + 8 });
    }
    return { tags, next: u32(at + 2 + 12 * n) };
  };
  return { u16, u32, ifd, ifd0: () => ifd(u32(4)) };
}

const contains = (haystack: Uint8Array, needle: number[]) =>
  haystack.some((_, i) => needle.every((b, k) => haystack[i + k] === b));
const bytesOf = (le: boolean, values: number[]) =>
  values.flatMap((v) => (le ? [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24] : [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]));

const orders = [true, false] as const;
const orderName = (le: boolean) => (le ? 'II' : 'MM');

describe('jpegOrientation', () => {
  it('reads every orientation in either byte order, with and without GPS', () => {
    for (const le of orders) {
      for (let o = 1; o <= 8; o++) {
        for (const gps of [true, false]) {
          for (const jfif of [true, false]) {
            expect(jpegOrientation(jpeg(cameraExif(le, { orientation: o, gps }), { jfif })), `${orderName(le)} ${o}`).toBe(o);
          }
        }
      }
    }
  });

  it('gives the transform that turns a sideways phone photo upright', () => {
    expect(fromExifOrientation(jpegOrientation(jpeg(cameraExif(false, { orientation: 6 }))))).toBe(apply(identity, 'rotateCW'));
    expect(fromExifOrientation(jpegOrientation(jpeg(cameraExif(true, { orientation: 8 }))))).toBe(apply(identity, 'rotateCCW'));
  });

  it('is 1 without an orientation that browsers would follow', () => {
    expect(jpegOrientation(jpeg())).toBe(1);
    expect(jpegOrientation(jpeg(cameraExif(true, { orientation: undefined })))).toBe(1);
    expect(jpegOrientation(jpeg(cameraExif(true, { orientation: 0 })))).toBe(1);
    expect(jpegOrientation(jpeg(cameraExif(false, { orientation: 9 })))).toBe(1);
    expect(jpegOrientation(jpeg(tiff(true, { tags: [{ tag: 0x0112, type: LONG, values: [6] }] })))).toBe(1);
    expect(jpegOrientation(new Uint8Array(0))).toBe(1);
    expect(jpegOrientation(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe(1);
  });

  it('reads the first Exif segment, past other APP1 segments', () => {
    const xmpFirst = new Uint8Array([0xff, 0xd8, ...segment(0xe1, ascii('http://ns.adobe.com/xap/1.0/\0')), ...exifSegment(cameraExif(true, { orientation: 3 })), ...IMAGE]);
    expect(jpegOrientation(xmpFirst)).toBe(3);
  });

  it('reads it past an ICC profile (APP2) and fill bytes', () => {
    const icc = segment(0xe2, [...ascii('ICC_PROFILE\0'), 1, 1, ...new Array<number>(300).fill(7)]);
    const file = new Uint8Array([0xff, 0xd8, ...JFIF, ...icc, 0xff, 0xff, ...exifSegment(cameraExif(false, { orientation: 6 })), ...IMAGE]);
    expect(jpegOrientation(file)).toBe(6);
  });

  it('takes a value outside 1–8, or in the wrong byte, as 1', () => {
    for (const le of orders) {
      for (const o of [255, 0x0600, 0xffff]) expect(jpegOrientation(jpeg(cameraExif(le, { orientation: o }))), `${orderName(le)} ${o}`).toBe(1);
    }
  });

  it('stops at the image data: a tag after SOS is not metadata', () => {
    const late = new Uint8Array([0xff, 0xd8, ...IMAGE.slice(0, -2), ...jpeg(cameraExif(true, { orientation: 6 })).slice(2)]);
    expect(jpegOrientation(late)).toBe(1);
  });

  it('reads a view into a larger buffer', () => {
    const file = jpeg(cameraExif(false, { orientation: 5 }), { jfif: true });
    const big = new Uint8Array(file.length + 10);
    big.set(file, 10);
    expect(jpegOrientation(big.subarray(10))).toBe(5);
  });
});

describe('withOrientation', () => {
  const changed = (a: Uint8Array, b: Uint8Array) => [...a].flatMap((v, i) => (v === b[i] ? [] : [i]));

  it('changes only the tag, in a copy, in either byte order', () => {
    for (const le of orders) {
      for (const jfif of [true, false]) {
        for (let o = 1; o <= 8; o++) {
          const t = cameraExif(le, { orientation: o });
          const file = jpeg(t, { jfif });
          const before = file.slice();
          // Where the value is, found by the test's own reader: SOI, JFIF, the APP1 marker and length, 'Exif\0\0'.
          const at = 2 + (jfif ? JFIF.length : 0) + 4 + 6 + reader(t).ifd0().tags.get(0x0112)!.at;
          const low = le ? at : at + 1;
          expect([file[low], file[le ? at + 1 : at]]).toEqual([o, 0]);

          const upright = withOrientation(file, 1);
          expect(jpegOrientation(upright)).toBe(1);
          expect(upright.length).toBe(file.length);
          expect(changed(file, upright)).toEqual(o === 1 ? [] : [low]);
          expect(changed(before, file)).toEqual([]); // the original is untouched
          expect(upright).not.toBe(file);
          for (let v = 1; v <= 8; v++) expect(jpegOrientation(withOrientation(upright, v as Orientation))).toBe(v);
        }
      }
    }
  });

  it('copies unchanged a JPEG without a tag that jpegOrientation reads', () => {
    for (const file of [
      jpeg(),
      jpeg(cameraExif(true, { orientation: undefined })),
      jpeg(cameraExif(false, { orientation: 9 })),
      jpeg(tiff(true, { tags: [{ tag: 0x0112, type: LONG, values: [6] }] })),
      new Uint8Array(0),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    ]) {
      const out = withOrientation(file, 1);
      expect(out).toEqual(file);
      expect(out).not.toBe(file);
    }
  });

  it('works on a view, writing nothing outside it', () => {
    const file = jpeg(cameraExif(true, { orientation: 8 }));
    const big = new Uint8Array(file.length + 20).fill(0xee);
    big.set(file, 10);
    const out = withOrientation(big.subarray(10, 10 + file.length), 1);
    expect(out.length).toBe(file.length);
    expect(jpegOrientation(out)).toBe(1);
    expect(changed(file, out)).toHaveLength(1);
    expect(jpegOrientation(big.subarray(10))).toBe(8);
  });

  it('keeps what follows a head cut short: the cropper rewrites only the first bytes of a file', () => {
    const file = jpeg(cameraExif(false, { orientation: 6 }), { jfif: true });
    for (let n = 0; n <= file.length; n++) {
      const head = file.subarray(0, n);
      const out = withOrientation(head, 1);
      expect(out.length).toBe(n);
      expect(changed(head, out).length).toBeLessThanOrEqual(1);
      expect(jpegOrientation(out)).toBe(1);
    }
  });
});

describe('readExif', () => {
  it('gives the TIFF structure after the Exif header, as a copy', () => {
    const t = cameraExif(false, { orientation: 5 });
    const file = jpeg(t, { jfif: true });
    const read = readExif(file);
    expect(read).toEqual(t);
    file.fill(0);
    expect(read).toEqual(t);
  });

  it('is undefined without an Exif segment', () => {
    expect(readExif(jpeg())).toBeUndefined();
    expect(readExif(jpeg(undefined, { xmp: true, jfif: true }))).toBeUndefined();
    expect(readExif(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});

describe('hasGps', () => {
  it('sees a GPS IFD with a position', () => {
    for (const le of orders) {
      expect(hasGps(cameraExif(le, { gps: true }))).toBe(true);
      expect(hasGps(cameraExif(le, { gps: false }))).toBe(false);
    }
  });

  it('does not count a GPS IFD holding only its version, or one that is not there', () => {
    expect(hasGps(tiff(true, { tags: [{ tag: 0x8825, ifd: { tags: [{ tag: 0, type: BYTE, values: [2, 3, 0, 0] }] } }] }))).toBe(false);
    expect(hasGps(tiff(false, { tags: [{ tag: 0x8825, type: LONG, values: [100000] }] }))).toBe(false);
    expect(hasGps(new Uint8Array(0))).toBe(false);
  });
});

describe('rewriteExif', () => {
  for (const le of orders) {
    describe(orderName(le), () => {
      const original = cameraExif(le, { orientation: 6 });

      it('sets the orientation to 1, keeping the size and the other data', () => {
        const out = rewriteExif(original, { stripGps: false });
        if (!out) throw new Error('not rewritten');
        expect(out.length).toBe(original.length);
        expect(jpegOrientation(withExif(jpeg(), out))).toBe(1);
        const r = reader(out);
        const ifd0 = r.ifd0();
        expect(r.u16(ifd0.tags.get(0x0112)!.at)).toBe(1);
        expect([...ifd0.tags.keys()]).toEqual([0x010f, 0x0112, 0x011a, 0x8769, 0x8825]);
        // The Exif IFD, its values and the maker note are where they were, byte for byte.
        const exifAt = r.u32(ifd0.tags.get(0x8769)!.at);
        const exif = r.ifd(exifAt);
        const date = exif.tags.get(0x9003)!;
        expect(String.fromCharCode(...out.subarray(r.u32(date.at), r.u32(date.at) + date.count))).toBe(DATE);
        const note = exif.tags.get(0x927c)!;
        expect([...out.subarray(r.u32(note.at), r.u32(note.at) + note.count)]).toEqual(MAKER_NOTE);
        expect(r.ifd(r.u32(exif.tags.get(0xa005)!.at)).tags.has(1)).toBe(true);
        expect(contains(out, ascii('Camera\0'))).toBe(true);
      });

      it('keeps the location when asked', () => {
        const out = rewriteExif(original, { stripGps: false })!;
        expect(hasGps(out)).toBe(true);
        expect(contains(out, bytesOf(le, LATITUDE))).toBe(true);
      });

      it('removes the location: the link from IFD0 and the data', () => {
        expect(hasGps(original)).toBe(true);
        expect(contains(original, bytesOf(le, LATITUDE))).toBe(true);
        const out = rewriteExif(original, { stripGps: true })!;
        expect(out.length).toBe(original.length);
        expect(hasGps(out)).toBe(false);
        expect(reader(out).ifd0().tags.has(0x8825)).toBe(false);
        expect(contains(out, bytesOf(le, LATITUDE))).toBe(false);
        expect(contains(out, ascii('N\0'))).toBe(false);
        // Everything else is still there.
        expect(contains(out, ascii(DATE))).toBe(true);
        expect(contains(out, MAKER_NOTE)).toBe(true);
        expect(jpegOrientation(withExif(jpeg(), out))).toBe(1);
      });

      it('drops the thumbnail, which shows the old orientation', () => {
        expect(contains(original, THUMBNAIL)).toBe(true);
        for (const stripGps of [true, false]) {
          const out = rewriteExif(original, { stripGps })!;
          expect(reader(out).ifd0().next).toBe(0);
          expect(contains(out, THUMBNAIL.slice(4, 12))).toBe(false);
        }
      });

      it('is stable: rewriting the rewritten changes nothing', () => {
        const once = rewriteExif(original, { stripGps: true })!;
        expect(rewriteExif(once, { stripGps: true })).toEqual(once);
      });
    });
  }

  it('adds nothing when there is no orientation, GPS or thumbnail', () => {
    const plain = cameraExif(true, { orientation: undefined, gps: false, thumbnail: false });
    expect(rewriteExif(plain, { stripGps: true })).toEqual(plain);
  });

  it('writes the orientation as a single SHORT 1 whatever it was', () => {
    const odd = tiff(false, { tags: [{ tag: 0x0112, type: LONG, values: [8, 8] }] });
    const out = rewriteExif(odd, { stripGps: true })!;
    const e = reader(out).ifd0().tags.get(0x0112)!;
    expect([e.type, e.count, reader(out).u16(e.at)]).toEqual([SHORT, 1, 1]);
  });
});

describe('withExif', () => {
  const t = cameraExif(true, { orientation: 1 });

  it('puts the Exif segment right after SOI, or after JFIF', () => {
    const plain = jpeg();
    const out = withExif(plain, t);
    expect([...out]).toEqual([0xff, 0xd8, ...exifSegment(t), ...IMAGE]);
    const afterJfif = withExif(jpeg(undefined, { jfif: true }), t);
    expect([...afterJfif]).toEqual([0xff, 0xd8, ...JFIF, ...exifSegment(t), ...IMAGE]);
    expect(readExif(afterJfif)).toEqual(t);
  });

  it('replaces an Exif segment and keeps other APP1 segments', () => {
    const old = jpeg(cameraExif(false, { orientation: 6 }), { jfif: true, xmp: true });
    const out = withExif(old, t);
    expect([...out]).toEqual([...jpeg(t, { jfif: true, xmp: true })]);
    expect(jpegOrientation(out)).toBe(1);
    expect(contains(out, ascii('Exif\0\0MM'))).toBe(false);
  });

  it('round-trips with readExif and rewriteExif', () => {
    for (const le of orders) {
      for (let o = 1; o <= 8; o++) {
        const file = jpeg(cameraExif(le, { orientation: o }));
        const rewritten = rewriteExif(readExif(file)!, { stripGps: true })!;
        const out = withExif(jpeg(undefined, { jfif: true }), rewritten);
        expect(readExif(out)).toEqual(rewritten);
        expect(jpegOrientation(out)).toBe(1);
        expect(hasGps(readExif(out)!)).toBe(false);
      }
    }
  });

  it('keeps whatever follows a damaged header as it is', () => {
    const damaged = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x40, 1, 2]); // a segment longer than the file
    expect([...withExif(damaged, t)]).toEqual([0xff, 0xd8, ...exifSegment(t), 0xff, 0xe0, 0x00, 0x40, 1, 2]);
  });

  it('refuses what is not a JPEG, and EXIF too large for a segment', () => {
    expect(() => withExif(new Uint8Array([0x89, 0x50]), t)).toThrow(RangeError);
    expect(() => withExif(jpeg(), new Uint8Array(65530))).toThrow(RangeError);
    expect(withExif(jpeg(), new Uint8Array(65527)).length).toBe(jpeg().length + 65537);
  });
});

describe('corrupt EXIF', () => {
  const le32 = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24];

  it('never throws on a JPEG cut anywhere', () => {
    const file = jpeg(cameraExif(false, { orientation: 8 }), { jfif: true });
    for (let n = 0; n <= file.length; n++) {
      const cut = file.subarray(0, n);
      expect([1, 8]).toContain(jpegOrientation(cut));
      const exif = readExif(cut);
      if (exif) {
        hasGps(exif);
        rewriteExif(exif, { stripGps: true });
      }
    }
  });

  it('never throws on a TIFF cut anywhere, and rewrites only what it can read', () => {
    for (const le of orders) {
      const t = cameraExif(le, { orientation: 3 });
      for (let n = 0; n <= t.length; n++) {
        const cut = t.subarray(0, n);
        hasGps(cut);
        for (const stripGps of [true, false]) {
          const out = rewriteExif(cut, { stripGps });
          if (out) {
            expect(out.length).toBe(n);
            expect(hasGps(out) && stripGps).toBe(false);
          }
        }
      }
    }
  });

  it('refuses offsets past the end', () => {
    const t = new Uint8Array([...ascii('II'), 42, 0, ...le32(0xfffffff0)]);
    expect(rewriteExif(t, { stripGps: true })).toBeUndefined();
    expect(hasGps(t)).toBe(false);
    expect(jpegOrientation(jpeg(t))).toBe(1);
    // An Exif IFD that is not there cannot be kept.
    const badExif = tiff(true, { tags: [{ tag: 0x8769, type: LONG, values: [5000] }] });
    expect(rewriteExif(badExif, { stripGps: true })).toBeUndefined();
    // A GPS IFD that is not there can be unlinked, but not kept.
    const badGps = tiff(true, { tags: [{ tag: 0x0112, type: SHORT, values: [6] }, { tag: 0x8825, type: LONG, values: [5000] }] });
    expect(rewriteExif(badGps, { stripGps: false })).toBeUndefined();
    const unlinked = rewriteExif(badGps, { stripGps: true })!;
    expect([...reader(unlinked).ifd0().tags.keys()]).toEqual([0x0112]);
    // An IFD with more entries than bytes.
    expect(rewriteExif(new Uint8Array([...ascii('MM'), 0, 42, 0, 0, 0, 8, 0xff, 0xff, 0, 0]), { stripGps: true })).toBeUndefined();
  });

  it('survives links in a loop, and never zeroes data it keeps', () => {
    // IFD0 links to itself as its Exif IFD, its GPS IFD and its IFD1.
    const loop = tiff(true, {
      tags: [
        { tag: 0x010f, type: ASCII, values: ascii('Camera\0') },
        { tag: 0x0112, type: SHORT, values: [6] },
        { tag: 0x8769, type: LONG, values: [8] },
        { tag: 0x8825, type: LONG, values: [8] },
      ],
    });
    loop.set(le32(8), 8 + 2 + 4 * 12); // next IFD: itself
    expect(jpegOrientation(jpeg(loop))).toBe(6);
    const out = rewriteExif(loop, { stripGps: true })!;
    const ifd0 = reader(out).ifd0();
    expect([...ifd0.tags.keys()]).toEqual([0x010f, 0x0112, 0x8769]);
    expect(ifd0.next).toBe(0);
    expect(contains(out, ascii('Camera\0'))).toBe(true);
  });

  it('does not zero the header or a kept IFD that a dropped value points into', () => {
    for (const le of orders) {
      const t = cameraExif(le, { orientation: 6 });
      const r = reader(t);
      const ifd0 = r.ifd0();
      const gps = r.ifd(r.u32(ifd0.tags.get(0x8825)!.at));
      const exifAt = r.u32(ifd0.tags.get(0x8769)!.at);
      // The latitude at the TIFF header, the longitude on the Exif IFD.
      t.set(bytesOf(le, [0]), gps.tags.get(0x0002)!.at);
      t.set(bytesOf(le, [exifAt]), gps.tags.get(0x0004)!.at);
      const out = rewriteExif(t, { stripGps: true })!;
      expect([...out.subarray(0, 8)]).toEqual([...t.subarray(0, 8)]);
      expect(reader(out).ifd(exifAt).tags.get(0x9003)).toEqual(r.ifd(exifAt).tags.get(0x9003));
      expect(contains(out, ascii(DATE))).toBe(true);
    }
  });

  it('takes an IFD with more entries than bytes, or an empty segment, as upright', () => {
    const t = cameraExif(true, { orientation: 6 });
    const many = t.slice();
    many.set([0xff, 0xff], 8); // IFD0's entry count
    expect(jpegOrientation(jpeg(many))).toBe(1);
    expect(withOrientation(jpeg(many), 1)).toEqual(jpeg(many));
    expect(jpegOrientation(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, 0]))).toBe(1);
    expect(jpegOrientation(new Uint8Array([0xff, 0xd8, ...segment(0xe1, ascii('Exif\0\0'))]))).toBe(1);
  });

  it('never throws on random bytes after SOI', () => {
    let seed = 1;
    for (let i = 0; i < 500; i++) {
      const junk = new Uint8Array(64).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
      junk.set([0xff, 0xd8]);
      if (i % 2) junk.set([0xff, 0xe1, 0, 60, ...ascii('Exif\0\0')], 2); // an Exif segment of junk
      const o = jpegOrientation(junk);
      expect(o >= 1 && o <= 8).toBe(true);
      expect(withOrientation(junk, 1).length).toBe(64);
      readExif(junk);
    }
  });

  it('never throws on damaged bytes', () => {
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const le of orders) {
      const t = cameraExif(le, { orientation: 7 });
      for (let round = 0; round < 1000; round++) {
        const damaged = t.slice();
        for (let k = 0; k < 4; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
        const o = jpegOrientation(jpeg(damaged));
        expect(o >= 1 && o <= 8).toBe(true);
        hasGps(damaged);
        const out = rewriteExif(damaged, { stripGps: true });
        if (out) {
          expect(out.length).toBe(damaged.length);
          expect(hasGps(out)).toBe(false);
          expect(jpegOrientation(withExif(jpeg(), out))).toBe(1);
        }
      }
    }
  });
});
