// The cropper's geometry, pure and DOM-free. Three spaces:
// - upright: the image after its EXIF orientation, in natural (full-resolution) pixels;
// - image: the upright image turned by `rotation` quarter turns clockwise; the crop lives here;
// - screen: CSS pixels of the canvas; screen = image × view.scale + (view.x, view.y).

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}
export interface Rect extends Point, Size {}
/** Image to screen: screen = image × scale + (x, y). */
export interface View extends Point {
  scale: number;
}
export type Rotation = 0 | 1 | 2 | 3;
export type Handle = 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w' | 'nw';
export type FitMode = 'contain' | 'cover';
/** A canvas matrix [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

/** One wheel notch (or one zoom step) scales by 1 + 0.2. */
export const ZOOM_COEFFICIENT = 0.2;
export const ZOOM_STEP = 1 + ZOOM_COEFFICIENT;
/** Room around the image in contain mode, in CSS pixels, so edge handles stay within reach. */
export const VIEW_MARGIN = 16;
/** The most pixels of one canvas (iOS Safari's limit); larger outputs are scaled down to fit. */
export const MAX_OUTPUT_PIXELS = 16_777_216;

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

// ---------- matrices and rotation ----------

/** m ∘ n: apply n, then m. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  const [a, b, c, d, e, f] = m;
  const [A, B, C, D, E, F] = n;
  return [a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f];
}

export function transformPoint(m: Matrix, p: Point): Point {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

export function rotatedSize(size: Size, rotation: number): Size {
  return rotation % 2 ? { width: size.height, height: size.width } : size;
}

/** Upright → image coordinates for `rotation` quarter turns clockwise of an upright image of `upright` size. */
export function rotationMatrix(rotation: Rotation, upright: Size): Matrix {
  const { width: w, height: h } = upright;
  return rotation === 1 ? [0, 1, -1, 0, h, 0] : rotation === 2 ? [-1, 0, 0, -1, w, h] : rotation === 3 ? [0, -1, 1, 0, 0, w] : [1, 0, 0, 1, 0, 0];
}

/** The same rectangle after turning its image (of `size`) a quarter turn clockwise (1) or counter-clockwise (-1). */
export function rotateRect(r: Rect, size: Size, dir: 1 | -1): Rect {
  return dir === 1
    ? { x: size.height - r.y - r.height, y: r.x, width: r.height, height: r.width }
    : { x: r.y, y: size.width - r.x - r.width, width: r.height, height: r.width };
}

/** A crop in image coordinates (turned by `rotation`) back in upright coordinates. */
export function unrotateRect(r: Rect, rotation: Rotation, upright: Size): Rect {
  let size = rotatedSize(upright, rotation);
  for (let i = 0; i < rotation; i++) {
    r = rotateRect(r, size, -1);
    size = rotatedSize(size, 1);
  }
  return r;
}

/**
 * A crop as onChange reports it (in the image turned by its `rotation`) in upright coordinates,
 * for a pipeline that crops first and turns after (turn by `rotation` quarter turns clockwise).
 */
export function cropToUpright(crop: Rect & { rotation: Rotation }, upright: Size): Rect {
  const { x, y, width, height } = unrotateRect(crop, crop.rotation, upright);
  return { x, y, width, height };
}

// ---------- the view ----------

export function fitScale(image: Size, viewport: Size, mode: FitMode, margin = VIEW_MARGIN): number {
  if (mode === 'cover') return Math.max(viewport.width / image.width, viewport.height / image.height);
  const w = Math.max(1, viewport.width - 2 * margin);
  const h = Math.max(1, viewport.height - 2 * margin);
  return Math.min(w / image.width, h / image.height);
}

/** The image fitted into the viewport (contain: whole, with a margin; cover: filling it), centred. */
export function fitView(image: Size, viewport: Size, mode: FitMode, margin = VIEW_MARGIN): View {
  const scale = fitScale(image, viewport, mode, margin);
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/** From the whole image in view up to 8 screen pixels per image pixel (or 4× the fit, or the cover fit). */
export function zoomLimits(image: Size, viewport: Size, margin = VIEW_MARGIN): { min: number; max: number } {
  const min = fitScale(image, viewport, 'contain', margin);
  return { min, max: Math.max(8, min * 4, fitScale(image, viewport, 'cover')) };
}

/** Centres an axis the image does not fill; otherwise allows no gap wider than the margin. */
export function clampView(view: View, image: Size, viewport: Size, margin = VIEW_MARGIN): View {
  const axis = (pos: number, size: number, port: number) =>
    size <= port ? (port - size) / 2 : clamp(pos, port - size - margin, margin);
  return {
    scale: view.scale,
    x: axis(view.x, image.width * view.scale, viewport.width),
    y: axis(view.y, image.height * view.scale, viewport.height),
  };
}

/** Zooms by `factor` (within limits) keeping the image point under `at` (screen) in place. */
export function zoomView(view: View, factor: number, at: Point, limits: { min: number; max: number }): View {
  const scale = clamp(view.scale * factor, limits.min, limits.max);
  const k = scale / view.scale;
  return { scale, x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k };
}

/** Two fingers: the image point under the starting midpoint follows the current midpoint, scaled by `factor`. */
export function pinchView(start: View, from: Point, to: Point, factor: number, limits: { min: number; max: number }): View {
  const scale = clamp(start.scale * factor, limits.min, limits.max);
  const ix = (from.x - start.x) / start.scale;
  const iy = (from.y - start.y) / start.scale;
  return { scale, x: to.x - ix * scale, y: to.y - iy * scale };
}

/** Zoom factor of one wheel event: 1.2 per notch (100 px, 3 lines), at most one notch per event. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaMode === 1 ? deltaY * (100 / 3) : deltaMode === 2 ? deltaY * 100 : deltaY;
  return ZOOM_STEP ** -clamp(px / 100, -1, 1);
}

/** Pans the view the least so that `rect` (image coordinates) is in the viewport, where it fits. */
export function revealRect(view: View, rect: Rect, viewport: Size, margin = VIEW_MARGIN): View {
  const axis = (pos: number, start: number, len: number, port: number) => {
    const a = start * view.scale + pos;
    const b = a + len * view.scale;
    if (b - a > port - 2 * margin) return pos;
    return a < margin ? pos + margin - a : b > port - margin ? pos - (b - (port - margin)) : pos;
  };
  return { scale: view.scale, x: axis(view.x, rect.x, rect.width, viewport.width), y: axis(view.y, rect.y, rect.height, viewport.height) };
}

export function toScreen(r: Rect, v: View): Rect {
  return { x: r.x * v.scale + v.x, y: r.y * v.scale + v.y, width: r.width * v.scale, height: r.height * v.scale };
}

/** One keyboard step in image pixels: about one screen pixel, at least one image pixel (Shift: ten). */
export function keyStep(scale: number, big: boolean): number {
  return (big ? 10 : 1) * Math.max(1, Math.round(1 / scale));
}

// ---------- the crop ----------

/** The fixed width ÷ height, or undefined when free. */
export function ratioOf(fixed: boolean, ratio: readonly [number, number]): number | undefined {
  return fixed && ratio[0] > 0 && ratio[1] > 0 && Number.isFinite(ratio[0] / ratio[1]) ? ratio[0] / ratio[1] : undefined;
}

/** The largest box of the ratio inside the image (the image itself when free). */
export function largestBox(image: Size, ratio?: number): Size {
  if (!ratio) return image;
  return image.width / image.height > ratio
    ? { width: image.height * ratio, height: image.height }
    : { width: image.width, height: image.width / ratio };
}

/** The smallest crop: both sides at least `min` (keeping the ratio), but never more than fits in the image. */
export function minBox(image: Size, min: number, ratio?: number): Size {
  if (!ratio) return { width: Math.min(min, image.width), height: Math.min(min, image.height) };
  const width = Math.max(min, min * ratio);
  const largest = largestBox(image, ratio);
  return width > largest.width ? largest : { width, height: width / ratio };
}

function centred(size: Size, image: Size): Rect {
  return { x: (image.width - size.width) / 2, y: (image.height - size.height) / 2, ...size };
}

/** Auto crop: the largest box of the ratio, centred; otherwise 80 % of it. */
export function initialCrop(image: Size, min: number, ratio: number | undefined, autoCrop: boolean): Rect {
  const box = largestBox(image, ratio);
  const k = autoCrop ? 1 : 0.8;
  const least = minBox(image, min, ratio);
  return centred({ width: Math.max(box.width * k, least.width), height: Math.max(box.height * k, least.height) }, image);
}

/** Moves a rect (that fits) inside the image. */
export function clampRect(r: Rect, image: Size): Rect {
  return {
    x: clamp(r.x, 0, Math.max(0, image.width - r.width)),
    y: clamp(r.y, 0, Math.max(0, image.height - r.height)),
    width: r.width,
    height: r.height,
  };
}

export function moveCrop(r: Rect, dx: number, dy: number, image: Size): Rect {
  return clampRect({ ...r, x: r.x + dx, y: r.y + dy }, image);
}

/**
 * Makes a crop obey the ratio (same area), the image's bounds and the minimum size, about its
 * centre: after a rotation, or when the ratio, the lock or the minimum change.
 */
export function conformCrop(r: Rect, image: Size, min: number, ratio?: number): Rect {
  const least = minBox(image, min, ratio);
  let width: number;
  let height: number;
  if (ratio) {
    // Same area, then no larger than fits, then no smaller than the minimum.
    width = Math.sqrt(r.width * r.height * ratio);
    width = Math.max(least.width, Math.min(width, image.width, image.height * ratio));
    height = width / ratio;
  } else {
    width = clamp(r.width, least.width, image.width);
    height = clamp(r.height, least.height, image.height);
  }
  return clampRect({ x: r.x + (r.width - width) / 2, y: r.y + (r.height - height) / 2, width, height }, image);
}

const sideX = (h: Handle) => (h.includes('e') ? 1 : h.includes('w') ? -1 : 0);
const sideY = (h: Handle) => (h.includes('s') ? 1 : h.includes('n') ? -1 : 0);

/**
 * Drags `handle` of the crop `start` by (dx, dy) image pixels. The opposite side (or corner)
 * stays; with a ratio, a corner follows the pointer's projection on the diagonal, and an edge
 * grows the other side about its centre. Never smaller than the minimum, never out of the image.
 */
export function resizeCrop(start: Rect, handle: Handle, dx: number, dy: number, image: Size, min: number, ratio?: number): Rect {
  const hx = sideX(handle);
  const hy = sideY(handle);
  const least = minBox(image, min, ratio);
  const left = start.x;
  const right = start.x + start.width;
  const top = start.y;
  const bottom = start.y + start.height;
  // The size the pointer asks for along each axis it moves.
  const wantW = start.width + hx * dx;
  const wantH = start.height + hy * dy;
  // Room from the anchored side towards the handle.
  const roomW = hx > 0 ? image.width - left : hx < 0 ? right : 2 * Math.min(left + start.width / 2, image.width - left - start.width / 2);
  const roomH = hy > 0 ? image.height - top : hy < 0 ? bottom : 2 * Math.min(top + start.height / 2, image.height - top - start.height / 2);

  let width: number;
  let height: number;
  if (!ratio) {
    width = hx ? clamp(wantW, least.width, roomW) : start.width;
    height = hy ? clamp(wantH, least.height, roomH) : start.height;
  } else {
    const maxW = Math.min(roomW, roomH * ratio);
    const want = hx && hy ? (wantW * ratio * ratio + wantH * ratio) / (ratio * ratio + 1) : hx ? wantW : wantH * ratio;
    width = Math.max(least.width, Math.min(want, maxW));
    height = width / ratio;
  }
  const x = hx > 0 ? left : hx < 0 ? right - width : left + (start.width - width) / 2;
  const y = hy > 0 ? top : hy < 0 ? bottom - height : top + (start.height - height) / 2;
  return clampRect({ x, y, width, height }, image);
}

export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Where each handle sits on a (screen) rect. */
export function handlePoint(r: Rect, h: Handle): Point {
  return { x: r.x + ((sideX(h) + 1) / 2) * r.width, y: r.y + ((sideY(h) + 1) / 2) * r.height };
}

/**
 * What a press at `p` grabs on the crop `r` (both on screen): a handle within `radius`
 * (smaller on small crops so the inside stays movable), the inside ('move') or nothing.
 */
export function hitTest(r: Rect, p: Point, radius: number): Handle | 'move' | undefined {
  const reach = Math.min(radius, Math.max(6, Math.min(r.width, r.height) / 4));
  let best: Handle | undefined;
  let bestD = Infinity;
  for (const h of HANDLES) {
    const q = handlePoint(r, h);
    const d = Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y));
    if (d <= reach && d < bestD) [best, bestD] = [h, d];
  }
  if (best) return best;
  // Edges are handles along their whole length.
  const inX = p.x >= r.x - reach && p.x <= r.x + r.width + reach;
  const inY = p.y >= r.y - reach && p.y <= r.y + r.height + reach;
  if (inY && Math.abs(p.x - r.x) <= reach) return 'w';
  if (inY && Math.abs(p.x - r.x - r.width) <= reach) return 'e';
  if (inX && Math.abs(p.y - r.y) <= reach) return 'n';
  if (inX && Math.abs(p.y - r.y - r.height) <= reach) return 's';
  return p.x > r.x && p.x < r.x + r.width && p.y > r.y && p.y < r.y + r.height ? 'move' : undefined;
}

export const CURSORS: Record<Handle | 'move', string> = {
  n: 'ns',
  s: 'ns',
  e: 'ew',
  w: 'ew',
  ne: 'nesw',
  sw: 'nesw',
  nw: 'nwse',
  se: 'nwse',
  move: 'move',
};

// ---------- output ----------

/** The crop in whole pixels, inside the image: what onChange reports. */
export function roundRect(r: Rect, image: Size): Rect {
  const x = clamp(Math.round(r.x), 0, Math.max(0, image.width - 1));
  const y = clamp(Math.round(r.y), 0, Math.max(0, image.height - 1));
  return {
    x,
    y,
    width: clamp(Math.round(r.width), 1, Math.max(1, image.width - x)),
    height: clamp(Math.round(r.height), 1, Math.max(1, image.height - y)),
  };
}

/**
 * The output's size: `outputWidth` px wide (height from the crop's ratio), or the crop's size in
 * the processed image (`processScale` = processed ÷ natural pixels, 1 unless downscaled to the
 * maximum image size) times `outputSize`. Whole pixels, at least 1, at most MAX_OUTPUT_PIXELS.
 */
export function outputSizeOf(crop: Size, opts: { outputSize?: number; outputWidth?: number; processScale?: number }, maxPixels = MAX_OUTPUT_PIXELS): Size {
  let w: number;
  let h: number;
  if (opts.outputWidth && opts.outputWidth > 0) {
    w = opts.outputWidth;
    h = (opts.outputWidth * crop.height) / crop.width;
  } else {
    const k = (opts.processScale ?? 1) * (opts.outputSize && opts.outputSize > 0 ? opts.outputSize : 1);
    w = crop.width * k;
    h = crop.height * k;
  }
  const fit = Math.min(1, Math.sqrt(maxPixels / (w * h)));
  const width = Math.max(1, Math.floor(w * fit + 0.5));
  const height = Math.max(1, Math.floor(h * fit + 0.5));
  return width * height > maxPixels ? { width: Math.max(1, width - 1), height: Math.max(1, height - 1) } : { width, height };
}

/** A size scaled down (never up) so its longer side is at most `max`. */
export function fitWithin(size: Size, max: number): Size {
  const k = Math.min(1, max / Math.max(size.width, size.height));
  return { width: Math.max(1, Math.round(size.width * k)), height: Math.max(1, Math.round(size.height * k)) };
}

/** Upright → output canvas: the crop (image coordinates, after `rotation`) fills an output of `out` size. */
export function outputMatrix(crop: Rect, out: Size, rotation: Rotation, upright: Size): Matrix {
  const sx = out.width / crop.width;
  const sy = out.height / crop.height;
  return multiply([sx, 0, 0, sy, -crop.x * sx, -crop.y * sy], rotationMatrix(rotation, upright));
}
