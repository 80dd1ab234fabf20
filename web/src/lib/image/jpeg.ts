// The marker segments at the head of a JPEG, up to the start of the compressed data. Both the
// size (in the frame header) and the metadata (in APPn segments) live there, so reading them
// never touches the image data, and a file cut short or damaged ends the walk instead of
// sending it off the end.
import { u16 } from './bytes';

export interface Segment {
  /** The marker's second byte: 0xE1 for APP1, 0xC0 for SOF0… */
  readonly marker: number;
  /** Where the segment's 0xFF marker byte is. */
  readonly start: number;
  /** Where its payload starts: after the marker and, when it has one, the length field. */
  readonly payload: number;
  /** One past its last byte. */
  readonly end: number;
}

export interface Head {
  /** The segments after SOI and before SOS, in file order. */
  readonly segments: readonly Segment[];
  /** Where the walk stopped (fill bytes included): at SOS or EOI, or at what could not be read. */
  readonly rest: number;
}

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const APP0 = 0xe0;
export const APP1 = 0xe1;

/** Markers that stand alone, without a length: TEM, RST0–7 (and a stray SOI). */
function standalone(marker: number): boolean {
  return marker === 0x01 || marker === SOI || (marker >= 0xd0 && marker <= 0xd7);
}

/** The head of a JPEG, or undefined if it does not start with SOI. */
export function jpegHead(b: Uint8Array): Head | undefined {
  if (b[0] !== 0xff || b[1] !== SOI) return undefined;
  const segments: Segment[] = [];
  let pos = 2;
  for (;;) {
    // Any number of 0xFF fill bytes may precede a marker.
    let m = pos;
    if (b[m] !== 0xff) break;
    while (b[m + 1] === 0xff) m++;
    if (m + 1 >= b.length) break;
    const marker = b[m + 1];
    if (marker === EOI || marker === SOS) break;
    if (standalone(marker)) {
      segments.push({ marker, start: m, payload: m + 2, end: m + 2 });
      pos = m + 2;
      continue;
    }
    const length = u16(b, m + 2, false);
    // The length counts itself, so it is at least 2; a segment must fit in the file.
    if (length === undefined || length < 2 || m + 2 + length > b.length) break;
    segments.push({ marker, start: m, payload: m + 4, end: m + 2 + length });
    pos = m + 2 + length;
  }
  return { segments, rest: pos };
}

/** Whether a marker starts a frame (SOF0–15 less DHT, JPG and DAC, which share the range). */
export function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}
