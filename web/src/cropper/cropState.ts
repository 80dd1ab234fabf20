// The cropper's state and how it changes, without the DOM: the image's turn, the crop box, the
// view (zoom and pan) and the viewport, and the gestures, keys and buttons that move them. The
// controller (controller.ts) keeps one of these, paints it and reports it.
import {
  clampView,
  conformCrop,
  CURSORS,
  fitView,
  hitTest,
  initialCrop,
  moveCrop,
  pinchView,
  resizeCrop,
  revealRect,
  rotatedSize,
  rotateRect,
  roundRect,
  toScreen,
  zoomLimits,
  zoomView,
  type FitMode,
  type Handle,
  type Point,
  type Rect,
  type Rotation,
  type Size,
  type View,
} from './geometry';
import type { KeyAction } from './keys';
import type { CropRect } from './types';

export interface CropState {
  /** The image's upright size (natural pixels); 1 × 1 until one is shown. */
  upright: Size;
  /** Quarter turns clockwise. */
  rotation: Rotation;
  /** In the turned image's pixels. */
  crop: Rect;
  view: View;
  /** The canvas's CSS size. */
  port: Size;
}

/** What the props say about the crop: its fixed ratio (if any), smallest side and how the image fits. */
export interface CropRules {
  ratio: number | undefined;
  min: number;
  mode: FitMode;
}

export type Gesture =
  | { kind: 'move' | Handle; from: Point; crop: Rect }
  | { kind: 'pan'; from: Point; view: View }
  | { kind: 'pinch'; from: Point; dist: number; view: View };

export const emptyCropState: CropState = {
  upright: { width: 1, height: 1 },
  rotation: 0,
  crop: { x: 0, y: 0, width: 1, height: 1 },
  view: { scale: 1, x: 0, y: 0 },
  port: { width: 0, height: 0 },
};

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y) || 1;

/** The image as shown: turned by the rotation. */
export const shownSize = (s: CropState): Size => rotatedSize(s.upright, s.rotation);

/** The crop as the cropper reports it: whole pixels, with its rotation. */
export const cropRect = (s: CropState): CropRect => ({ ...roundRect(s.crop, shownSize(s)), rotation: s.rotation });

/** The view that fits the image to the viewport. */
export const fitted = (s: CropState, rules: CropRules): CropState => ({ ...s, view: fitView(shownSize(s), s.port, rules.mode) });

/** The view `v`, kept within what the image and viewport allow. */
const settled = (s: CropState, v: View): CropState => ({ ...s, view: clampView(v, shownSize(s), s.port) });

/** A new image, or the reset: the given turn, the first crop, the fitted view. */
export function begun(s: CropState, upright: Size, rotation: Rotation, autoCrop: boolean, rules: CropRules): CropState {
  const next = { ...s, upright, rotation };
  return fitted({ ...next, crop: initialCrop(shownSize(next), rules.min, rules.ratio, autoCrop) }, rules);
}

/** A quarter turn clockwise (1) or counter-clockwise (-1), the crop turning with the image. */
export function rotated(s: CropState, dir: 1 | -1, rules: CropRules): CropState {
  const before = shownSize(s);
  const crop = conformCrop(rotateRect(s.crop, before, dir), rotatedSize(before, 1), rules.min, rules.ratio);
  return fitted({ ...s, crop, rotation: ((s.rotation + dir + 4) % 4) as Rotation }, rules);
}

/** Zoomed by `factor` about `at`, or about the crop's centre. */
export function zoomed(s: CropState, factor: number, at?: Point): CropState {
  const r = toScreen(s.crop, s.view);
  return settled(s, zoomView(s.view, factor, at ?? { x: r.x + r.width / 2, y: r.y + r.height / 2 }, zoomLimits(shownSize(s), s.port)));
}

/** The crop made to follow changed rules (ratio, smallest side). */
export const conformed = (s: CropState, rules: CropRules): CropState => ({ ...s, crop: conformCrop(s.crop, shownSize(s), rules.min, rules.ratio) });

/** The gesture of the pointers now down, by where the first one is: a handle, the box, or the image (pan); two pinch. */
export function gestureOf(s: CropState, down: readonly Point[], pointerType: string): Gesture | undefined {
  const [a, b] = down;
  if (!a) return undefined;
  if (b) return { kind: 'pinch', from: mid(a, b), dist: dist(a, b), view: s.view };
  const hit = hitTest(toScreen(s.crop, s.view), a, pointerType === 'mouse' ? 8 : 22);
  return hit ? { kind: hit, from: a, crop: s.crop } : { kind: 'pan', from: a, view: s.view };
}

/** A pointer of gesture `g` moved to `at` (`down`: every pointer, moved one included). */
export function dragged(s: CropState, g: Gesture, down: readonly Point[], at: Point, rules: CropRules): CropState {
  if (g.kind === 'pinch') {
    const [a, b] = down;
    return settled(s, pinchView(g.view, g.from, mid(a, b), dist(a, b) / g.dist, zoomLimits(shownSize(s), s.port)));
  }
  if (g.kind === 'pan') return settled(s, { scale: g.view.scale, x: g.view.x + at.x - g.from.x, y: g.view.y + at.y - g.from.y });
  const dx = (at.x - g.from.x) / s.view.scale;
  const dy = (at.y - g.from.y) / s.view.scale;
  const size = shownSize(s);
  return { ...s, crop: g.kind === 'move' ? moveCrop(g.crop, dx, dy, size) : resizeCrop(g.crop, g.kind, dx, dy, size, rules.min, rules.ratio) };
}

/** An arrow key's move or resize, the view following the crop into sight. */
export function nudged(s: CropState, a: Extract<KeyAction, { kind: 'move' | 'resize' }>, rules: CropRules): CropState {
  const size = shownSize(s);
  const crop = a.kind === 'move' ? moveCrop(s.crop, a.dx, a.dy, size) : resizeCrop(s.crop, a.handle, a.dx, a.dy, size, rules.min, rules.ratio);
  return settled({ ...s, crop }, revealRect(s.view, crop, s.port));
}

/** The canvas's cursor: the gesture's, else what is under the pointer (`at`), else grab. */
export function cursorOf(s: CropState, g: Gesture | undefined, at?: Point): string {
  const hit = g ? g.kind : at && hitTest(toScreen(s.crop, s.view), at, 8);
  return hit === 'pan' ? 'grabbing' : hit && hit !== 'pinch' ? CURSORS[hit] : 'grab';
}
