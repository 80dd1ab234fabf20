import { describe, expect, it } from 'vitest';
import { concat, hasAscii, hasBytes, inRange, u16, u32, u8 } from './bytes';

const b = new Uint8Array([0x12, 0x34, 0x56, 0x78, 0xff, 0xfe, 0xfd, 0x80]);
const outside = [-1, 8, 1.5, NaN, Infinity, -Infinity];

describe('reading numbers', () => {
  it('reads a byte, undefined outside the array', () => {
    expect(u8(b, 0)).toBe(0x12);
    expect(u8(b, 7)).toBe(0x80);
    for (const at of outside) expect(u8(b, at), String(at)).toBeUndefined();
  });

  it('reads 16 bits in either order, undefined unless both bytes are there', () => {
    expect(u16(b, 0, false)).toBe(0x1234);
    expect(u16(b, 0, true)).toBe(0x3412);
    expect(u16(b, 4, false)).toBe(0xfffe);
    expect(u16(b, 6, true)).toBe(0x80fd);
    for (const at of [7, ...outside]) for (const le of [true, false]) expect(u16(b, at, le), String(at)).toBeUndefined();
  });

  it('reads 32 bits in either order, unsigned, undefined unless all four bytes are there', () => {
    expect(u32(b, 0, false)).toBe(0x12345678);
    expect(u32(b, 0, true)).toBe(0x78563412);
    expect(u32(b, 4, false)).toBe(0xfffefd80);
    expect(u32(b, 4, true)).toBe(0x80fdfeff);
    expect(u32(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 0, true)).toBe(4294967295);
    for (const at of [5, 6, 7, ...outside]) for (const le of [true, false]) expect(u32(b, at, le), String(at)).toBeUndefined();
  });

  it('reads within a view, at its own offsets', () => {
    const view = b.subarray(4);
    expect(u8(view, 0)).toBe(0xff);
    expect(u16(view, 2, false)).toBe(0xfd80);
    expect(u32(view, 0, false)).toBe(0xfffefd80);
    expect(u8(view, 4)).toBeUndefined();
    expect(u32(view, 1, false)).toBeUndefined();
  });
});

describe('matching bytes', () => {
  const exif = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0, 0, 0x49, 0x49]);

  it('matches ASCII text, false where it would run past the end', () => {
    expect(hasAscii(exif, 0, 'Exif\0\0')).toBe(true);
    expect(hasAscii(exif, 6, 'II')).toBe(true);
    expect(hasAscii(exif, 6, 'MM')).toBe(false);
    expect(hasAscii(exif, 7, 'II')).toBe(false);
    expect(hasAscii(exif, -1, 'E')).toBe(false);
    expect(hasAscii(exif, 8, '')).toBe(true);
  });

  it('matches bytes, false where they would run past the end', () => {
    expect(hasBytes(exif, 4, [0, 0, 0x49])).toBe(true);
    expect(hasBytes(exif, 4, [0, 1])).toBe(false);
    expect(hasBytes(exif, 7, [0x49, 0x49])).toBe(false);
    expect(hasBytes(exif, 1.5, [0x78])).toBe(false);
  });

  it('knows what lies inside the array', () => {
    expect(inRange(b, 0, 8)).toBe(true);
    expect(inRange(b, 8, 0)).toBe(true);
    expect(inRange(b, 7, 2)).toBe(false);
    expect(inRange(b, 0, 9)).toBe(false);
    for (const [at, length] of [[-1, 1], [0, -1], [0.5, 1], [0, 1.5], [NaN, 0], [0, Infinity]]) expect(inRange(b, at, length), `${at}, ${length}`).toBe(false);
  });
});

describe('concat', () => {
  it('puts the parts one after another in a new array', () => {
    const parts = [b.subarray(6), new Uint8Array(0), b.subarray(0, 2)];
    const out = concat(parts);
    expect([...out]).toEqual([0xfd, 0x80, 0x12, 0x34]);
    expect(out.buffer).not.toBe(b.buffer);
    expect(concat([])).toEqual(new Uint8Array(0));
  });
});
