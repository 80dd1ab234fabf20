// Where a frame goes and how its indices move. The transform and the crop are of the whole
// logical screen, so each frame is first clipped to the crop and then moved as the screen's
// transform moves its rectangle: a frame keeps its pixels and only changes place and shape.
import { mapPoint, outputSize, type Transform } from '../../../../../lib/image/transform';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of `a` inside `b`; undefined when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/** Where `r` (inside `box`) lands in the output of transforming `box`, in the output's pixels. */
export function place(r: Rect, box: Rect, t: Transform): Rect {
  const x = r.x - box.x;
  const y = r.y - box.y;
  const a = mapPoint(t, box.width, box.height, x, y);
  const b = mapPoint(t, box.width, box.height, x + r.width - 1, y + r.height - 1);
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), ...outputSize(t, r.width, r.height) };
}

/**
 * Where each row of a frame starts in its decoded indices. An interlaced frame stores every
 * 8th row from 0, then every 8th from 4, every 4th from 2 and every 2nd from 1; reading through
 * this table de-interlaces it while it is rearranged, without a copy.
 */
export function rowStarts(width: number, height: number, interlaced: boolean): Int32Array {
  const starts = new Int32Array(height);
  if (!interlaced) {
    for (let y = 0; y < height; y++) starts[y] = y * width;
    return starts;
  }
  let stored = 0;
  for (const [from, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ]) {
    for (let y = from; y < height; y += step) starts[y] = stored++ * width;
  }
  return starts;
}

/**
 * The indices of `clip` (in the frame's coordinates) transformed by `t`, row-major in
 * outputSize(t, clip.width, clip.height); `starts` from rowStarts.
 */
export function rearrange(indices: Uint8Array, starts: Int32Array, clip: Rect, t: Transform): Uint8Array {
  const { width: w, height: h } = clip;
  const size = outputSize(t, w, h);
  const out = new Uint8Array(w * h);
  // The destination index is affine in (x, y): start + x·dx + y·dy, as in transformPixels.
  const index = (p: { x: number; y: number }) => p.y * size.width + p.x;
  const start = index(mapPoint(t, w, h, 0, 0));
  const dx = index(mapPoint(t, w, h, 1, 0)) - start;
  const dy = index(mapPoint(t, w, h, 0, 1)) - start;
  for (let y = 0; y < h; y++) {
    const from = starts[clip.y + y] + clip.x;
    const to = start + y * dy;
    if (dx === 1) {
      out.set(indices.subarray(from, from + w), to);
    } else {
      for (let x = 0, i = from, j = to; x < w; x++, i++, j += dx) out[j] = indices[i];
    }
  }
  return out;
}
