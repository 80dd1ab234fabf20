import { describe, expect, it } from 'vitest';
import { isFrameHeader, jpegHead, type Segment } from './jpeg';

// JPEG heads made here, byte by byte: only the markers and lengths the walk reads are real.
const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >>> 8, (body.length + 2) & 0xff, ...body];
const SOI = [0xff, 0xd8];
const APP0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const DQT = segment(0xdb, [0, ...new Array<number>(64).fill(1)]);
const SOF0 = segment(0xc0, [8, 0, 2, 0, 3, 1, 1, 0x11, 0]);
const SOS = segment(0xda, [1, 1, 0, 0, 63, 0]);
const DATA = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd9];

const bytes = (...parts: number[][]) => new Uint8Array(parts.flat());

/** The segments a walk should find in `parts` laid end to end after SOI, each given as its marker. */
function expected(parts: number[][]): Segment[] {
  const out: Segment[] = [];
  let at = 2;
  for (const p of parts) {
    const hasLength = p.length > 2;
    out.push({ marker: p[1], start: at, payload: at + (hasLength ? 4 : 2), end: at + p.length });
    at += p.length;
  }
  return out;
}

describe('jpegHead', () => {
  it('lists the segments before SOS with their bounds, and where the walk stopped', () => {
    const file = bytes(SOI, APP0, DQT, SOF0, SOS, DATA);
    const head = jpegHead(file)!;
    expect(head.segments).toEqual(expected([APP0, DQT, SOF0]));
    expect(head.rest).toBe(2 + APP0.length + DQT.length + SOF0.length);
    expect(file[head.rest + 1]).toBe(0xda);
  });

  it('stops at EOI', () => {
    const file = bytes(SOI, APP0, [0xff, 0xd9], DQT);
    expect(jpegHead(file)).toEqual({ segments: expected([APP0]), rest: 2 + APP0.length });
  });

  it('skips fill bytes before a marker; rest counts them in', () => {
    const file = bytes(SOI, [0xff, 0xff], APP0, [0xff], SOS, DATA);
    const head = jpegHead(file)!;
    expect(head.segments).toEqual([{ marker: 0xe0, start: 4, payload: 8, end: 4 + APP0.length }]);
    expect(head.rest).toBe(4 + APP0.length); // the fill byte before SOS
  });

  it('takes markers without a length as they are: TEM, RST0–7, a stray SOI', () => {
    const file = bytes(SOI, [0xff, 0x01], [0xff, 0xd0], [0xff, 0xd7], [0xff, 0xd8], APP0, SOS);
    expect(jpegHead(file)!.segments).toEqual(expected([[0xff, 0x01], [0xff, 0xd0], [0xff, 0xd7], [0xff, 0xd8], APP0]));
  });

  it('stops where a marker should be and is not', () => {
    expect(jpegHead(bytes(SOI, [0x00], APP0))).toEqual({ segments: [], rest: 2 });
    expect(jpegHead(bytes(SOI, APP0, [0x12, 0x34], DQT))).toEqual({ segments: expected([APP0]), rest: 2 + APP0.length });
  });

  it('stops at a length under 2 or past the end, keeping the segments before', () => {
    expect(jpegHead(bytes(SOI, [0xff, 0xe1, 0, 0]))).toEqual({ segments: [], rest: 2 });
    expect(jpegHead(bytes(SOI, [0xff, 0xe1, 0, 1]))).toEqual({ segments: [], rest: 2 });
    expect(jpegHead(bytes(SOI, APP0, [0xff, 0xe1, 0, 0x40, 1, 2, 3]))).toEqual({ segments: expected([APP0]), rest: 2 + APP0.length });
    expect(jpegHead(bytes(SOI, [0xff, 0xe1, 0]))).toEqual({ segments: [], rest: 2 });
  });

  it('ends at a file cut anywhere, with every segment whole', () => {
    const file = bytes(SOI, APP0, [0xff, 0xff], DQT, [0xff, 0xd0], SOF0, SOS, DATA);
    for (let n = 0; n <= file.length; n++) {
      const head = jpegHead(file.subarray(0, n));
      if (n < 2) {
        expect(head).toBeUndefined();
        continue;
      }
      expect(head!.rest).toBeLessThanOrEqual(n);
      for (const s of head!.segments) expect(s.end).toBeLessThanOrEqual(n);
      expect(head!.segments).toEqual(jpegHead(file)!.segments.filter((s) => s.end <= n));
    }
  });

  it('is undefined without SOI', () => {
    for (const b of [[], [0xff], [0xff, 0xd9], [0xd8, 0xff], [0x89, 0x50, 0x4e, 0x47]]) expect(jpegHead(new Uint8Array(b))).toBeUndefined();
  });

  it('counts positions from the start of a view into a larger buffer', () => {
    const file = bytes(SOI, APP0, SOS);
    const big = new Uint8Array(file.length + 10);
    big.set(file, 7);
    expect(jpegHead(big.subarray(7, 7 + file.length))).toEqual(jpegHead(file));
  });

  it('never throws or runs off the bytes on junk, and its segments follow one another', () => {
    let seed = 5;
    for (let i = 0; i < 2000; i++) {
      const junk = new Uint8Array(48).map(() => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        // Mostly 0xFF and small lengths, so that walks go far.
        const r = (seed >> 16) & 0xff;
        return r < 96 ? 0xff : r < 160 ? r & 7 : r;
      });
      junk.set(SOI);
      const head = jpegHead(junk)!;
      let last = 2;
      for (const s of head.segments) {
        expect(s.start).toBeGreaterThanOrEqual(last);
        expect(junk[s.start]).toBe(0xff);
        expect(s.payload).toBeLessThanOrEqual(s.end);
        expect(s.end).toBeLessThanOrEqual(junk.length);
        last = s.end;
      }
      expect(head.rest).toBe(last);
    }
  });
});

describe('isFrameHeader', () => {
  it('is SOF0–15 and nothing else', () => {
    const frames = [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf];
    for (let m = 0; m < 256; m++) expect(isFrameHeader(m), m.toString(16)).toBe(frames.includes(m));
  });
});
