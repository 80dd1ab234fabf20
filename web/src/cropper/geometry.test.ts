import { describe, expect, it } from 'vitest';
import {
  clampRect,
  clampView,
  conformCrop,
  cropToUpright,
  fitView,
  fitWithin,
  handlePoint,
  HANDLES,
  hitTest,
  initialCrop,
  keyStep,
  largestBox,
  MAX_OUTPUT_PIXELS,
  minBox,
  moveCrop,
  multiply,
  outputMatrix,
  outputSizeOf,
  pinchView,
  ratioOf,
  resizeCrop,
  revealRect,
  rotatedSize,
  rotateRect,
  rotationMatrix,
  roundRect,
  toScreen,
  transformPoint,
  unrotateRect,
  VIEW_MARGIN,
  wheelFactor,
  ZOOM_COEFFICIENT,
  zoomLimits,
  zoomView,
  type Handle,
  type Matrix,
  type Rect,
  type Rotation,
  type Size,
} from './geometry';
import { draw, grid, turns } from '../../test/cropper/testGrid';

const close = (a: Rect, b: Rect, digits = 6) => {
  expect(a.x).toBeCloseTo(b.x, digits);
  expect(a.y).toBeCloseTo(b.y, digits);
  expect(a.width).toBeCloseTo(b.width, digits);
  expect(a.height).toBeCloseTo(b.height, digits);
};
const inside = (r: Rect, s: Size) => {
  expect(r.x).toBeGreaterThanOrEqual(-1e-9);
  expect(r.y).toBeGreaterThanOrEqual(-1e-9);
  expect(r.x + r.width).toBeLessThanOrEqual(s.width + 1e-9);
  expect(r.y + r.height).toBeLessThanOrEqual(s.height + 1e-9);
};
const img: Size = { width: 400, height: 300 };

describe('matrices and rotation', () => {
  it('multiplies as "apply the right one first"', () => {
    const scale: Matrix = [2, 0, 0, 2, 0, 0];
    const shift: Matrix = [1, 0, 0, 1, 10, 0];
    expect(transformPoint(multiply(scale, shift), { x: 1, y: 1 })).toEqual({ x: 22, y: 2 });
    expect(transformPoint(multiply(shift, scale), { x: 1, y: 1 })).toEqual({ x: 12, y: 2 });
  });

  it.each([0, 1, 2, 3] as Rotation[])('turns a 3 × 2 image %i quarter turns clockwise, pixel for pixel', (r) => {
    const g = grid(3, 2);
    const out = rotatedSize({ width: 3, height: 2 }, r);
    expect(draw(g, rotationMatrix(r, { width: 3, height: 2 }), out.width, out.height)).toEqual(turns(g, r));
  });

  it('turns rects with their image, both ways, and back', () => {
    const r = { x: 10, y: 20, width: 100, height: 50 };
    expect(rotateRect(r, img, 1)).toEqual({ x: 300 - 20 - 50, y: 10, width: 50, height: 100 });
    expect(rotateRect(r, img, -1)).toEqual({ x: 20, y: 400 - 10 - 100, width: 50, height: 100 });
    expect(rotateRect(rotateRect(r, img, 1), { width: 300, height: 400 }, -1)).toEqual(r);
  });

  it('a rect turned with rotateRect is the rect the rotation matrix maps', () => {
    const r = { x: 10, y: 20, width: 100, height: 50 };
    let size = img;
    let turned = r;
    for (const rot of [1, 2, 3] as Rotation[]) {
      turned = rotateRect(turned, size, 1);
      size = rotatedSize(size, 1);
      const m = rotationMatrix(rot, img);
      const a = transformPoint(m, { x: r.x, y: r.y });
      const b = transformPoint(m, { x: r.x + r.width, y: r.y + r.height });
      close(turned, { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) });
    }
  });

  it.each([0, 1, 2, 3] as Rotation[])('maps a crop back to upright coordinates (rotation %i)', (rot) => {
    const upright = { width: 400, height: 300 };
    const r = { x: 10, y: 20, width: 100, height: 50 };
    let turned = r;
    let size = upright;
    for (let i = 0; i < rot; i++) {
      turned = rotateRect(turned, size, 1);
      size = rotatedSize(size, 1);
    }
    expect(unrotateRect(turned, rot, upright)).toEqual(r);
    expect(cropToUpright({ ...turned, rotation: rot }, upright)).toEqual(r);
  });
});

describe('the view', () => {
  const port = { width: 532, height: 332 }; // 500 × 300 inside the margin

  it('contains the image with a margin, centred', () => {
    const v = fitView(img, port, 'contain');
    expect(v.scale).toBeCloseTo(1);
    expect(v).toEqual({ scale: 1, x: 66, y: 16 });
  });

  it('covers the viewport without a margin, centred', () => {
    const v = fitView(img, port, 'cover');
    expect(v.scale).toBeCloseTo(1.33);
    expect(v.y).toBeCloseTo((332 - 300 * 1.33) / 2);
    expect(v.x).toBeCloseTo(0);
  });

  it('scales small images up to fit, and survives a zero viewport', () => {
    expect(fitView({ width: 10, height: 10 }, { width: 132, height: 132 }, 'contain').scale).toBe(10);
    expect(Number.isFinite(fitView(img, { width: 0, height: 0 }, 'contain').scale)).toBe(true);
  });

  it('limits zoom from the whole image to 8 screen pixels per image pixel', () => {
    expect(zoomLimits(img, port)).toEqual({ min: 1, max: 8 });
    expect(zoomLimits({ width: 10, height: 10 }, { width: 132, height: 132 })).toEqual({ min: 10, max: 40 });
    // A long panorama: zoom reaches the cover scale.
    const pano = { width: 1000, height: 10 };
    expect(zoomLimits(pano, port).max).toBeCloseTo(33.2);
  });

  it('zooms by 1.2 per step about a point that stays put', () => {
    expect(ZOOM_COEFFICIENT).toBe(0.2);
    const v = { scale: 1, x: 66, y: 16 };
    const at = { x: 166, y: 116 }; // image point (100, 100)
    const z = zoomView(v, 1.2, at, { min: 0.5, max: 8 });
    expect(z.scale).toBeCloseTo(1.2);
    expect((at.x - z.x) / z.scale).toBeCloseTo(100);
    expect((at.y - z.y) / z.scale).toBeCloseTo(100);
  });

  it('stops zooming at the limits', () => {
    const v = { scale: 7, x: 0, y: 0 };
    expect(zoomView(v, 1.2, { x: 0, y: 0 }, { min: 1, max: 8 }).scale).toBe(8);
    expect(zoomView({ scale: 1.1, x: 0, y: 0 }, 1 / 1.2, { x: 50, y: 50 }, { min: 1, max: 8 })).toEqual({ scale: 1, x: 50 - 50 / 1.1, y: 50 - 50 / 1.1 });
  });

  it('turns wheel deltas into factors of 1.2 per notch, at most one notch per event', () => {
    expect(wheelFactor(-100)).toBeCloseTo(1.2);
    expect(wheelFactor(100)).toBeCloseTo(1 / 1.2);
    expect(wheelFactor(-500)).toBeCloseTo(1.2);
    expect(wheelFactor(-3, 1)).toBeCloseTo(1.2); // Firefox: 3 lines
    expect(wheelFactor(1, 2)).toBeCloseTo(1 / 1.2); // a page
    expect(wheelFactor(-10)).toBeCloseTo(1.2 ** 0.1); // a trackpad's small steps add up
    expect(wheelFactor(0)).toBe(1);
  });

  it('pinches about the fingers and follows their midpoint', () => {
    const start = { scale: 1, x: 0, y: 0 };
    const v = pinchView(start, { x: 100, y: 100 }, { x: 120, y: 90 }, 2, { min: 0.5, max: 8 });
    expect(v.scale).toBe(2);
    // The image point (100, 100) that was under the fingers is under their new midpoint.
    expect(100 * v.scale + v.x).toBeCloseTo(120);
    expect(100 * v.scale + v.y).toBeCloseTo(90);
    expect(pinchView(start, { x: 0, y: 0 }, { x: 0, y: 0 }, 100, { min: 0.5, max: 8 }).scale).toBe(8);
  });

  it('centres what fits and keeps the image over the viewport when zoomed', () => {
    expect(clampView({ scale: 1, x: -500, y: 999 }, img, port)).toEqual({ scale: 1, x: 66, y: 16 });
    const big = clampView({ scale: 4, x: 100, y: -5000 }, img, port);
    expect(big.x).toBe(VIEW_MARGIN);
    expect(big.y).toBe(332 - 1200 - VIEW_MARGIN);
    expect(clampView({ scale: 4, x: -100, y: -100 }, img, port)).toEqual({ scale: 4, x: -100, y: -100 });
  });

  it('pans to reveal a crop that left the viewport, when it fits', () => {
    const v = { scale: 4, x: 0, y: 0 };
    const moved = revealRect(v, { x: 200, y: 10, width: 10, height: 10 }, port);
    expect(200 * 4 + moved.x + 40).toBe(port.width - VIEW_MARGIN);
    expect(moved.y).toBe(0); // already in view vertically
    expect(revealRect(v, { x: 0, y: 0, width: 10, height: 10 }, port)).toEqual({ scale: 4, x: VIEW_MARGIN, y: VIEW_MARGIN });
    expect(revealRect(v, { x: 20, y: 20, width: 10, height: 10 }, port)).toEqual(v);
    expect(revealRect(v, { x: 0, y: 0, width: 400, height: 10 }, port).x).toBe(0); // too wide: left as is
  });

  it('maps rects to the screen', () => {
    expect(toScreen({ x: 10, y: 20, width: 30, height: 40 }, { scale: 2, x: 5, y: 6 })).toEqual({ x: 25, y: 46, width: 60, height: 80 });
  });

  it('steps about one screen pixel with the keys, and ten with Shift', () => {
    expect(keyStep(1, false)).toBe(1);
    expect(keyStep(1, true)).toBe(10);
    expect(keyStep(4, false)).toBe(1);
    expect(keyStep(0.25, false)).toBe(4);
    expect(keyStep(0.25, true)).toBe(40);
  });
});

describe('the crop', () => {
  it('has a ratio only when fixed with a valid one', () => {
    expect(ratioOf(true, [1, 1])).toBe(1);
    expect(ratioOf(true, [16, 9])).toBeCloseTo(16 / 9);
    expect(ratioOf(false, [16, 9])).toBeUndefined();
    expect(ratioOf(true, [0, 1])).toBeUndefined();
    expect(ratioOf(true, [1, 0])).toBeUndefined();
    expect(ratioOf(true, [-1, 2])).toBeUndefined();
  });

  it('finds the largest box of a ratio', () => {
    expect(largestBox(img, 1)).toEqual({ width: 300, height: 300 });
    expect(largestBox(img, 2)).toEqual({ width: 400, height: 200 });
    expect(largestBox(img)).toEqual(img);
  });

  it('keeps both sides at least the minimum, within the image', () => {
    expect(minBox(img, 10)).toEqual({ width: 10, height: 10 });
    expect(minBox(img, 10, 2)).toEqual({ width: 20, height: 10 });
    expect(minBox(img, 10, 0.5)).toEqual({ width: 10, height: 20 });
    expect(minBox({ width: 5, height: 8 }, 10)).toEqual({ width: 5, height: 8 });
    expect(minBox({ width: 5, height: 8 }, 10, 1)).toEqual({ width: 5, height: 5 });
  });

  it('starts at 80 % of the largest box, or all of it with auto crop, centred', () => {
    expect(initialCrop(img, 10, 1, false)).toEqual({ x: 80, y: 30, width: 240, height: 240 });
    expect(initialCrop(img, 10, 1, true)).toEqual({ x: 50, y: 0, width: 300, height: 300 });
    expect(initialCrop(img, 10, undefined, true)).toEqual({ x: 0, y: 0, width: 400, height: 300 });
    close(initialCrop(img, 10, undefined, false), { x: 40, y: 30, width: 320, height: 240 });
    expect(initialCrop({ width: 10, height: 10 }, 10, 1, false)).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });

  it('moves inside the image only', () => {
    const r = { x: 10, y: 10, width: 100, height: 100 };
    expect(moveCrop(r, 5, -3, img)).toEqual({ ...r, x: 15, y: 7 });
    expect(moveCrop(r, -50, -50, img)).toEqual({ ...r, x: 0, y: 0 });
    expect(moveCrop(r, 1000, 1000, img)).toEqual({ ...r, x: 300, y: 200 });
    expect(clampRect({ x: -5, y: 0, width: 500, height: 10 }, img).x).toBe(0);
  });

  describe('resizing', () => {
    const start = { x: 100, y: 100, width: 100, height: 100 };

    it('moves only the dragged sides when free', () => {
      expect(resizeCrop(start, 'e', 20, 99, img, 10)).toEqual({ x: 100, y: 100, width: 120, height: 100 });
      expect(resizeCrop(start, 'w', 20, 99, img, 10)).toEqual({ x: 120, y: 100, width: 80, height: 100 });
      expect(resizeCrop(start, 'n', 99, -30, img, 10)).toEqual({ x: 100, y: 70, width: 100, height: 130 });
      expect(resizeCrop(start, 's', 99, 30, img, 10)).toEqual({ x: 100, y: 100, width: 100, height: 130 });
      expect(resizeCrop(start, 'se', 10, 20, img, 10)).toEqual({ x: 100, y: 100, width: 110, height: 120 });
      expect(resizeCrop(start, 'nw', 10, 20, img, 10)).toEqual({ x: 110, y: 120, width: 90, height: 80 });
      expect(resizeCrop(start, 'ne', 10, 20, img, 10)).toEqual({ x: 100, y: 120, width: 110, height: 80 });
      expect(resizeCrop(start, 'sw', 10, 20, img, 10)).toEqual({ x: 110, y: 100, width: 90, height: 120 });
    });

    it('stops at the image and at the minimum (never flips)', () => {
      expect(resizeCrop(start, 'e', 1000, 0, img, 10)).toEqual({ x: 100, y: 100, width: 300, height: 100 });
      expect(resizeCrop(start, 'nw', -1000, -1000, img, 10)).toEqual({ x: 0, y: 0, width: 200, height: 200 });
      expect(resizeCrop(start, 'e', -1000, 0, img, 10)).toEqual({ x: 100, y: 100, width: 10, height: 100 });
      expect(resizeCrop(start, 'nw', 1000, 1000, img, 10)).toEqual({ x: 190, y: 190, width: 10, height: 10 });
    });

    it.each(HANDLES)('keeps the ratio from the %s handle', (h: Handle) => {
      for (const ratio of [1, 16 / 9, 0.75]) {
        const s = conformCrop(start, img, 10, ratio);
        for (const [dx, dy] of [
          [15, 5],
          [-15, -5],
          [40, -40],
          [500, 500],
          [-500, -500],
          [0, 0],
        ] as const) {
          const r = resizeCrop(s, h, dx, dy, img, 10, ratio);
          expect(r.width / r.height).toBeCloseTo(ratio, 9);
          inside(r, img);
          expect(Math.min(r.width, r.height)).toBeGreaterThanOrEqual(10 - 1e-9);
        }
      }
    });

    it('anchors the opposite corner, and an edge grows about its middle', () => {
      const se = resizeCrop(start, 'se', 20, 20, img, 10, 1);
      expect(se).toEqual({ x: 100, y: 100, width: 120, height: 120 });
      const nw = resizeCrop(start, 'nw', -20, -20, img, 10, 1);
      expect(nw).toEqual({ x: 80, y: 80, width: 120, height: 120 });
      const e = resizeCrop(start, 'e', 20, 0, img, 10, 1);
      expect(e).toEqual({ x: 100, y: 90, width: 120, height: 120 });
      const n = resizeCrop(start, 'n', 0, -20, img, 10, 2);
      expect(n).toEqual({ x: 30, y: 80, width: 240, height: 120 });
    });

    it('follows the pointer along the diagonal from a corner', () => {
      // Only sideways: half way, for a square.
      expect(resizeCrop(start, 'se', 20, 0, img, 10, 1).width).toBeCloseTo(110);
      // Exactly on the diagonal: exactly there.
      const s = { x: 0, y: 0, width: 160, height: 90 };
      const r = resizeCrop(s, 'se', 32, 18, img, 10, 16 / 9);
      close(r, { x: 0, y: 0, width: 192, height: 108 });
    });

    it('stops a ratio box at the nearest image edge', () => {
      const r = resizeCrop(start, 'se', 1000, 0, img, 10, 1);
      expect(r).toEqual({ x: 100, y: 100, width: 200, height: 200 });
      // An edge handle can grow only as far as the other axis has room about the middle.
      const e = resizeCrop({ x: 100, y: 20, width: 40, height: 40 }, 'e', 1000, 0, img, 10, 1);
      expect(e).toEqual({ x: 100, y: 0, width: 80, height: 80 });
    });

    it('keeps the minimum with a ratio', () => {
      const r = resizeCrop(start, 'se', -1000, -1000, img, 10, 2);
      close(r, { x: 100, y: 100, width: 20, height: 10 });
    });
  });

  describe('conforming', () => {
    it('takes a new ratio about the centre, keeping the area', () => {
      const r = conformCrop({ x: 100, y: 100, width: 100, height: 100 }, img, 10, 4);
      close(r, { x: 50, y: 125, width: 200, height: 50 });
    });

    it('shrinks to fit and moves inside the image', () => {
      const r = conformCrop({ x: 0, y: 0, width: 300, height: 300 }, img, 10, 2);
      expect(r.width / r.height).toBeCloseTo(2);
      inside(r, img);
      expect(r.width).toBeCloseTo(400);
      const free = conformCrop({ x: 350, y: 0, width: 100, height: 400 }, img, 10);
      expect(free).toEqual({ x: 300, y: 0, width: 100, height: 300 });
    });

    it('grows to the minimum', () => {
      expect(conformCrop({ x: 100, y: 100, width: 2, height: 2 }, img, 10)).toEqual({ x: 96, y: 96, width: 10, height: 10 });
      close(conformCrop({ x: 100, y: 100, width: 2, height: 2 }, img, 10, 1), { x: 96, y: 96, width: 10, height: 10 });
      expect(conformCrop({ x: 0, y: 0, width: 50, height: 5 }, img, 20).height).toBe(20);
    });

    it('keeps a crop that already obeys', () => {
      close(conformCrop({ x: 80, y: 30, width: 240, height: 240 }, img, 10, 1), { x: 80, y: 30, width: 240, height: 240 });
    });

    it('after a rotation, turns a 16:9 crop back to 16:9 in the turned image', () => {
      const crop = { x: 40, y: 50, width: 320, height: 180 };
      const turned = rotateRect(crop, img, 1);
      const r = conformCrop(turned, rotatedSize(img, 1), 10, 16 / 9);
      expect(r.width / r.height).toBeCloseTo(16 / 9);
      inside(r, rotatedSize(img, 1));
    });
  });

  describe('hit testing', () => {
    const r = { x: 100, y: 100, width: 200, height: 100 };

    it('finds each handle within its reach, inside and outside the box', () => {
      for (const h of HANDLES) {
        const p = handlePoint(r, h);
        expect(hitTest(r, p, 8)).toBe(h);
        expect(hitTest(r, { x: p.x + 5, y: p.y - 5 }, 8)).toBe(h);
      }
    });

    it('treats the rest of an edge as its handle, the inside as move, and the outside as nothing', () => {
      expect(hitTest(r, { x: 130, y: 102 }, 8)).toBe('n');
      expect(hitTest(r, { x: 298, y: 170 }, 8)).toBe('e');
      expect(hitTest(r, { x: 150, y: 150 }, 8)).toBe('move');
      expect(hitTest(r, { x: 50, y: 50 }, 8)).toBeUndefined();
      expect(hitTest(r, { x: 130, y: 120 }, 22)).toBe('n'); // touch reaches further
    });

    it('leaves the middle of a small box movable', () => {
      const small = { x: 100, y: 100, width: 30, height: 30 };
      expect(hitTest(small, { x: 115, y: 115 }, 22)).toBe('move');
      expect(hitTest(small, { x: 100, y: 100 }, 22)).toBe('nw');
    });
  });
});

describe('output', () => {
  it('rounds the crop to whole pixels inside the image', () => {
    expect(roundRect({ x: 10.4, y: 0.6, width: 99.5, height: 20.2 }, img)).toEqual({ x: 10, y: 1, width: 100, height: 20 });
    expect(roundRect({ x: 299.6, y: 0, width: 100.4, height: 300 }, img)).toEqual({ x: 300, y: 0, width: 100, height: 300 });
    expect(roundRect({ x: 0, y: 0, width: 0.2, height: 0.2 }, img)).toEqual({ x: 0, y: 0, width: 1, height: 1 });
  });

  it('sizes the output from the crop, the scale, the processing scale or a fixed width', () => {
    const crop = { width: 300, height: 200 };
    expect(outputSizeOf(crop, {})).toEqual({ width: 300, height: 200 });
    expect(outputSizeOf(crop, { outputSize: 0.5 })).toEqual({ width: 150, height: 100 });
    expect(outputSizeOf(crop, { outputSize: 1, processScale: 0.5 })).toEqual({ width: 150, height: 100 });
    expect(outputSizeOf(crop, { outputWidth: 256 })).toEqual({ width: 256, height: 171 });
    expect(outputSizeOf(crop, { outputWidth: 256, outputSize: 4, processScale: 0.1 })).toEqual({ width: 256, height: 171 });
    expect(outputSizeOf({ width: 1, height: 1 }, { outputSize: 0.01 })).toEqual({ width: 1, height: 1 });
    expect(outputSizeOf(crop, { outputSize: 0 })).toEqual({ width: 300, height: 200 });
  });

  it('never exceeds the canvas pixel limit', () => {
    const s = outputSizeOf({ width: 8000, height: 6000 }, { outputSize: 1 });
    expect(s.width * s.height).toBeLessThanOrEqual(MAX_OUTPUT_PIXELS);
    expect(s.width / s.height).toBeCloseTo(4 / 3, 2);
    const odd = outputSizeOf({ width: 5000, height: 3355 }, {}, 1_000_003);
    expect(odd.width * odd.height).toBeLessThanOrEqual(1_000_003);
  });

  it('fits a preview within a size, never enlarging', () => {
    expect(fitWithin({ width: 2000, height: 1000 }, 512)).toEqual({ width: 512, height: 256 });
    expect(fitWithin({ width: 100, height: 50 }, 512)).toEqual({ width: 100, height: 50 });
  });

  it.each([0, 1, 2, 3] as Rotation[])('draws exactly the crop of the turned image (rotation %i)', (rot) => {
    const upright = { width: 4, height: 3 };
    const turned = turns(grid(4, 3), rot);
    const size = rotatedSize(upright, rot);
    const crop = { x: 1, y: 1, width: size.width - 2, height: size.height - 1 };
    const out = draw(grid(4, 3), outputMatrix(crop, crop, rot, upright), crop.width, crop.height, true);
    expect(out).toEqual(turned.slice(1).map((row) => row.slice(1, size.width - 1)));
  });

  it('scales the crop to the output size', () => {
    const m = outputMatrix({ x: 10, y: 20, width: 100, height: 50 }, { width: 200, height: 100 }, 0, img);
    expect(transformPoint(m, { x: 10, y: 20 })).toEqual({ x: 0, y: 0 });
    expect(transformPoint(m, { x: 110, y: 70 })).toEqual({ x: 200, y: 100 });
  });
});
