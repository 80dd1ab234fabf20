// A BMP decoder for the tests, written apart from the rewriter and checked itself against
// ImageMagick's decodes (corpus/*.rgba): it interprets every pixel (palette, masks) where the
// rewriter only moves bits, so a rewriter mistake cannot cancel out in the comparison.
export interface Rgba {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export function decodeBmp(file: Uint8Array): Rgba {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const hs = v.getUint32(14, true);
  const core = hs === 12;
  const width = core ? v.getUint16(18, true) : v.getInt32(18, true);
  const rawH = core ? v.getUint16(20, true) : v.getInt32(22, true);
  const height = Math.abs(rawH);
  const bpp = v.getUint16(core ? 24 : 28, true);
  const comp = core ? 0 : v.getUint32(30, true);
  const offset = v.getUint32(10, true);
  const entry = core ? 3 : 4;
  const paletteAt = 14 + hs + (comp === 3 && hs === 40 ? 12 : 0);
  const colours = core ? 1 << bpp : v.getUint32(46, true) || (bpp <= 8 ? 1 << bpp : 0);
  const palette = (i: number): [number, number, number, number] => {
    if (i >= colours) return [0, 0, 0, 255];
    const p = paletteAt + i * entry;
    return [file[p + 2], file[p + 1], file[p], 255];
  };
  let masks: number[];
  if (comp === 3) {
    masks = [0, 1, 2].map((k) => v.getUint32(54 + 4 * k, true));
    masks.push(hs >= 56 ? v.getUint32(54 + 12, true) : 0);
  } else if (bpp === 16) {
    masks = [0x7c00, 0x3e0, 0x1f, 0];
  } else {
    masks = [0xff0000, 0xff00, 0xff, 0];
  }
  const index = new Array<number>(width * height);
  if (comp === 1 || comp === 2) {
    let x = 0;
    let y = height - 1;
    let p = offset;
    for (;;) {
      const n = file[p++];
      const c = file[p++];
      if (n) {
        for (let i = 0; i < n; i++, x++) if (x < width) index[y * width + x] = comp === 1 ? c : (i & 1) === 0 ? c >> 4 : c & 15;
      } else if (c === 0) {
        x = 0;
        y--;
      } else if (c === 1) {
        break;
      } else {
        for (let i = 0; i < c; i++) {
          const b = comp === 1 ? file[p + i] : file[p + Math.floor(i / 2)];
          if (x < width) index[y * width + x] = comp === 1 ? b : i % 2 ? b & 15 : b >> 4;
          x++;
        }
        const used = comp === 1 ? c : Math.ceil(c / 2);
        p += used + (used & 1);
      }
    }
  }
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = offset + (rawH < 0 ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      let px: [number, number, number, number];
      if (comp === 1 || comp === 2) px = palette(index[y * width + x]);
      else if (bpp <= 8) {
        const bit = x * bpp;
        px = palette((file[row + (bit >> 3)] >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1));
      } else {
        const n = bpp / 8;
        let word = 0;
        for (let k = n - 1; k >= 0; k--) word = word * 256 + file[row + x * n + k];
        px = [0, 1, 2, 3].map((k) => (k === 3 && !masks[3] ? 255 : field(word, masks[k]))) as [number, number, number, number];
      }
      data.set(px, (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** A masked field scaled to 8 bits by repeating its bits, as ImageMagick does. */
function field(word: number, mask: number): number {
  if (!mask) return 0;
  let shift = 0;
  while (((mask / 2 ** shift) & 1) === 0) shift++;
  let bits = 0;
  while (((mask / 2 ** (shift + bits)) & 1) === 1) bits++;
  const value = Math.floor(word / 2 ** shift) % 2 ** bits;
  if (bits >= 8) return Math.floor(value / 2 ** (bits - 8));
  let out = 0;
  for (let filled = 0; filled < 8; filled += bits) out = out * 2 ** bits + value;
  return Math.floor(out / 2 ** (Math.ceil(8 / bits) * bits - 8));
}
