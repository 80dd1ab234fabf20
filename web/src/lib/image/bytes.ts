// Bounds-checked reads from untrusted files. Every reader answers undefined past the end rather
// than NaN or a half-read number, so that the parsers built on them cannot run off the data,
// misread a truncated file as a valid one, or throw.

/** The byte at `at`, or undefined outside the array. */
export function u8(b: Uint8Array, at: number): number | undefined {
  return inRange(b, at, 1) ? b[at] : undefined;
}

/** An unsigned 16-bit integer, little-endian when `le`. */
export function u16(b: Uint8Array, at: number, le: boolean): number | undefined {
  if (!inRange(b, at, 2)) return undefined;
  return le ? b[at] | (b[at + 1] << 8) : (b[at] << 8) | b[at + 1];
}

/** An unsigned 32-bit integer, little-endian when `le`. */
export function u32(b: Uint8Array, at: number, le: boolean): number | undefined {
  if (!inRange(b, at, 4)) return undefined;
  const [p, q, r, s] = le ? [b[at + 3], b[at + 2], b[at + 1], b[at]] : [b[at], b[at + 1], b[at + 2], b[at + 3]];
  // Multiplying instead of shifting the top byte keeps the result unsigned.
  return p * 0x1000000 + ((q << 16) | (r << 8) | s);
}

/** Whether the bytes at `at` are the ASCII characters of `text`. */
export function hasAscii(b: Uint8Array, at: number, text: string): boolean {
  if (!inRange(b, at, text.length)) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Whether the bytes at `at` are `expected`. */
export function hasBytes(b: Uint8Array, at: number, expected: readonly number[]): boolean {
  if (!inRange(b, at, expected.length)) return false;
  return expected.every((v, i) => b[at + i] === v);
}

/** Whether `length` bytes from `at` lie inside the array. */
export function inRange(b: Uint8Array, at: number, length: number): boolean {
  return Number.isInteger(at) && Number.isInteger(length) && at >= 0 && length >= 0 && at + length <= b.length;
}

/** The parts one after another, in one new array. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
