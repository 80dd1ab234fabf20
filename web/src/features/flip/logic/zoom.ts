// The view at 100 %, where one pixel of the image is one pixel of the screen: which part of the
// result is in sight, which region to ask the worker for, and how a point of the result maps to
// the upright image and back, so that the detail in sight stays there through a flip, a turn or
// a look at the original.
import { canvasMatrix, inverse, outputSize, type Transform } from '../../../lib/image/transform';
import type { Crop, Rect } from '../protocol';

export interface Point {
  x: number;
  y: number;
}

type Size = { width: number; height: number };

const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);

/**
 * The region to load for a view of the result: the view and half of it again on every side,
 * within the result, so that panning draws from pixels already there for a while; less margin
 * when that would pass `maxPixels` (a large screen at a high density), never less than the view.
 */
export function around(view: Rect, size: Size, maxPixels = Infinity): Rect {
  const grow = Math.max(1, Math.min(2, Math.sqrt(maxPixels / (view.width * view.height))));
  const width = Math.min(size.width, Math.floor(view.width * grow));
  const height = Math.min(size.height, Math.floor(view.height * grow));
  return {
    x: clamp(Math.round(view.x + (view.width - width) / 2), 0, size.width - width),
    y: clamp(Math.round(view.y + (view.height - height) / 2), 0, size.height - height),
    width,
    height,
  };
}

/** Whether `region` holds every pixel of the result that `view` shows. */
export function covers(region: Rect, view: Rect, size: Size): boolean {
  const x0 = Math.max(view.x, 0);
  const y0 = Math.max(view.y, 0);
  const x1 = Math.min(view.x + view.width, size.width);
  const y1 = Math.min(view.y + view.height, size.height);
  return region.x <= x0 && region.y <= y0 && region.x + region.width >= x1 && region.y + region.height >= y1;
}

const transformPoint = ([a, b, c, d, e, f]: readonly number[], p: Point): Point => ({ x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f });

/** Where a point of the upright image lands in the result of `crop`, then `t`. */
export function toResult(p: Point, t: Transform, crop: Crop): Point {
  return transformPoint(canvasMatrix(t, crop.width, crop.height), { x: p.x - crop.x, y: p.y - crop.y });
}

/** The point of the upright image under a point of the result: `toResult` undone. */
export function toUpright(p: Point, t: Transform, crop: Crop): Point {
  const out = outputSize(t, crop.width, crop.height);
  const local = transformPoint(canvasMatrix(inverse(t), out.width, out.height), p);
  return { x: local.x + crop.x, y: local.y + crop.y };
}
