// GIF's variable-length LZW, both ways. The decoder reads a frame's codes straight from its data
// sub-blocks into a buffer of the frame's pixel count and stops there: its memory is the frame's
// size whatever the data says, and a code that the table cannot hold yet is an error rather
// than a read out of bounds. The encoder is the greedy one that every GIF encoder uses (the
// longest string in the table, a clear code when the table is full), so a rewritten frame comes
// out about as long as it went in.

const MAX_CODES = 4096;

export type Decoded = { decoded: number } | { error: string };

/**
 * Decodes the image data whose first sub-block starts at `at` (the caller has checked that its
 * sub-blocks lie within `b`) into `out`, at most `out.length` indices. Returns how many were
 * decoded: fewer when the data ends (an end code, or no more sub-blocks) before the frame is full.
 */
export function decodeLzw(b: Uint8Array, at: number, minCodeSize: number, out: Uint8Array): Decoded {
  const count = out.length;
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  // Each entry is its prefix's code and its last index; its first index and length save
  // walking the chain to find them.
  const prefix = new Uint16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const first = new Uint8Array(MAX_CODES);
  const length = new Uint16Array(MAX_CODES);
  for (let i = 0; i < clear; i++) {
    suffix[i] = first[i] = i;
    length[i] = 1;
  }
  let size = minCodeSize + 1;
  let next = end + 1;
  let prev = -1;
  let op = 0;
  // The bit reader: bytes come from sub-blocks, `left` of the current one remain.
  let pos = at;
  let left = 0;
  let acc = 0;
  let bits = 0;
  while (op < count) {
    while (bits < size) {
      if (left === 0) {
        left = b[pos++];
        if (left === 0) return { decoded: op }; // the terminator: the data is short
      }
      acc |= b[pos++] << bits;
      bits += 8;
      left--;
    }
    const code = acc & ((1 << size) - 1);
    acc >>>= size;
    bits -= size;
    if (code === clear) {
      size = minCodeSize + 1;
      next = end + 1;
      prev = -1;
      continue;
    }
    if (code === end) break;
    if (prev !== -1 && next < MAX_CODES) {
      if (code > next) return { error: `code ${code} is past the table's ${next} entries` };
      // The new entry is the previous string and the first index of this one, which is the
      // previous string's own first index when the code is the entry being made (KwKwK).
      prefix[next] = prev;
      suffix[next] = first[code === next ? prev : code];
      first[next] = first[prev];
      length[next] = length[prev] + 1;
      next++;
      // The code grows when the table reaches its width; at 4096 entries it stays 12 bits and
      // the table stays full until a clear code (a "deferred clear").
      if (next === 1 << size && size < 12) size++;
    } else if (code >= next) {
      return { error: `code ${code} is past the table's ${next} entries` };
    }
    // The string is written backwards from its end; what lies past the frame is skipped.
    let c = code;
    let p = op + length[code] - 1;
    for (; p >= count; p--) c = prefix[c];
    for (; p >= op; p--) {
      out[p] = suffix[c];
      c = prefix[c];
    }
    op = Math.min(op + length[code], count);
    prev = code;
  }
  return { decoded: op };
}

// The encoder's table: strings by (next index << 12) + prefix code, in an open-addressed hash
// table of a prime size with room for every entry (4096 less the literals) at under 80 %
// occupancy, as in Unix compress and most GIF encoders: 30 KB, which stays in the cache, where
// a direct table of every prefix and index (2 MB) would not.
const HASH_SIZE = 5003;

/** A greedy LZW encoder; its table is kept between frames so that one file allocates it once. */
export class LzwEncoder {
  private readonly keys = new Int32Array(HASH_SIZE);
  private readonly codes = new Uint16Array(HASH_SIZE);
  private out = new Uint8Array(0);

  /** The indices' image data: data sub-blocks of at most 255 bytes and the terminator. */
  encode(indices: Uint8Array, minCodeSize: number): Uint8Array {
    const n = indices.length;
    // At most one code per index, a clear code per 3,838 codes (4096 less the literals, clear
    // and end), the first clear and the end, 12 bits each: never more than this.
    const most = Math.ceil(((n + Math.ceil(n / 3838) + 3) * 12) / 8) + 1;
    if (this.out.length < most) this.out = new Uint8Array(most);
    const { codes, keys, out } = this;
    keys.fill(-1);
    const clear = 1 << minCodeSize;
    const end = clear + 1;
    let next = end + 1;
    let size = minCodeSize + 1;
    let op = 0;
    // Codes go in least significant bit first; whole bytes leave at once. (The writes are
    // spelt out where they happen: this loop runs once per pixel of every frame.)
    let acc = clear;
    let bits = size;
    if (n > 0) {
      let current = indices[0];
      pixels: for (let i = 1; i < n; i++) {
        const k = indices[i];
        const key = (k << 12) + current;
        // Both are below 4096 here, and so is the first probe.
        let h = (k << 4) ^ current;
        if (keys[h] === key) {
          current = codes[h];
          continue;
        }
        if (keys[h] >= 0) {
          const step = h === 0 ? 1 : HASH_SIZE - h;
          do {
            h -= step;
            if (h < 0) h += HASH_SIZE;
            if (keys[h] === key) {
              current = codes[h];
              continue pixels;
            }
          } while (keys[h] >= 0);
        }
        acc |= current << bits;
        bits += size;
        for (; bits >= 8; bits -= 8, acc >>>= 8) out[op++] = acc & 0xff;
        if (next === MAX_CODES) {
          acc |= clear << bits;
          bits += size;
          for (; bits >= 8; bits -= 8, acc >>>= 8) out[op++] = acc & 0xff;
          keys.fill(-1);
          next = end + 1;
          size = minCodeSize + 1;
        } else {
          // The decoder adds each entry one code later, and widens its codes when the table
          // reaches 2^size: so does this, for the code after the one just written.
          if (next === 1 << size) size++;
          keys[h] = key;
          codes[h] = next++;
        }
        current = k;
      }
      acc |= current << bits;
      bits += size;
      for (; bits >= 8; bits -= 8, acc >>>= 8) out[op++] = acc & 0xff;
    }
    acc |= end << bits;
    bits += size;
    for (; bits > 0; bits -= 8, acc >>>= 8) out[op++] = acc & 0xff;
    return subBlocks(out.subarray(0, op));
  }
}

function subBlocks(data: Uint8Array): Uint8Array {
  const blocks = Math.ceil(data.length / 255);
  const out = new Uint8Array(data.length + blocks + 1);
  let op = 0;
  for (let i = 0; i < data.length; i += 255) {
    const n = Math.min(255, data.length - i);
    out[op++] = n;
    out.set(data.subarray(i, i + n), op);
    op += n;
  }
  out[op] = 0;
  return out;
}
