// The predictor transform: each block of pixels names one of the spec's 14 predictors, and the
// image is replaced by what the prediction misses, channel by channel modulo 256. The block's
// predictor is the one with the smallest residuals (summed as signed bytes, on every other row).

const BLACK = 0xff000000;

function average2(a: number, b: number): number {
  return ((((a ^ b) & 0xfefefefe) >>> 1) + (a & b)) >>> 0;
}

function channel(p: number, shift: number): number {
  return (p >>> shift) & 0xff;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function select(l: number, t: number, tl: number): number {
  let pl = 0;
  let pt = 0;
  for (let s = 0; s < 32; s += 8) {
    pl += Math.abs(channel(t, s) - channel(tl, s));
    pt += Math.abs(channel(l, s) - channel(tl, s));
  }
  return pl < pt ? l : t;
}

function clampAddSubtractFull(a: number, b: number, c: number): number {
  let out = 0;
  for (let s = 0; s < 32; s += 8) out |= clamp(channel(a, s) + channel(b, s) - channel(c, s)) << s;
  return out >>> 0;
}

function clampAddSubtractHalf(a: number, b: number): number {
  let out = 0;
  for (let s = 0; s < 32; s += 8) {
    const x = channel(a, s);
    out |= clamp(x + Math.trunc((x - channel(b, s)) / 2)) << s;
  }
  return out >>> 0;
}

/** The prediction of mode `m` from the left, top, top-right and top-left pixels. */
export function predict(m: number, l: number, t: number, tr: number, tl: number): number {
  switch (m) {
    case 0:
      return BLACK;
    case 1:
      return l;
    case 2:
      return t;
    case 3:
      return tr;
    case 4:
      return tl;
    case 5:
      return average2(average2(l, tr), t);
    case 6:
      return average2(l, tl);
    case 7:
      return average2(l, t);
    case 8:
      return average2(tl, t);
    case 9:
      return average2(t, tr);
    case 10:
      return average2(average2(l, tl), average2(t, tr));
    case 11:
      return select(l, t, tl);
    case 12:
      return clampAddSubtractFull(l, t, tl);
    default:
      return clampAddSubtractHalf(average2(l, t), tl);
  }
}

export function subtractPixels(a: number, b: number): number {
  const ag = ((a | 0x00ff00ff) - (b & 0xff00ff00)) >>> 0;
  const rb = ((a | 0xff00ff00) - (b & 0x00ff00ff)) >>> 0;
  return ((ag & 0xff00ff00) | (rb & 0x00ff00ff)) >>> 0;
}

function cost(residual: number): number {
  let c = 0;
  for (let s = 0; s < 32; s += 8) {
    const v = (residual >>> s) & 0xff;
    c += v < 128 ? v : 256 - v;
  }
  return c;
}

/** Residuals of `argb` and the block modes (one per 2^bits square, as the green of the sub-image). */
export function predictorTransform(argb: Uint32Array, width: number, height: number, bits: number): { residuals: Uint32Array; modes: Uint32Array; modesWidth: number } {
  const size = 1 << bits;
  const modesWidth = Math.ceil(width / size);
  const modes = new Uint32Array(modesWidth * Math.ceil(height / size));
  const residuals = new Uint32Array(argb.length);
  const at = (x: number, y: number, m: number) => {
    const i = y * width + x;
    // The top-right of the last column is the first pixel of the current row, as in memory.
    return predict(m, argb[i - 1], argb[i - width], argb[i - width + 1], argb[i - width - 1]);
  };
  for (let by = 0; by * size < height; by++) {
    for (let bx = 0; bx * size < width; bx++) {
      const x0 = bx * size;
      const y0 = by * size;
      const x1 = Math.min(width, x0 + size);
      const y1 = Math.min(height, y0 + size);
      let best = 1;
      let bestCost = Infinity;
      for (let m = 0; m < 14; m++) {
        let c = 0;
        // Every other row is enough to tell the modes apart, at half the cost.
        for (let y = Math.max(1, y0); y < y1 && c < bestCost; y += 2) {
          for (let x = Math.max(1, x0); x < x1; x++) c += cost(subtractPixels(argb[y * width + x], at(x, y, m)));
        }
        if (c < bestCost) [best, bestCost] = [m, c];
      }
      modes[by * modesWidth + bx] = (0xff000000 | (best << 8)) >>> 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = y * width + x;
          const p = y === 0 ? (x === 0 ? BLACK : argb[i - 1]) : x === 0 ? argb[i - width] : at(x, y, best);
          residuals[i] = subtractPixels(argb[i], p);
        }
      }
    }
  }
  return { residuals, modes, modesWidth };
}
