import { describe, expect, it } from 'vitest';
import {
  begun,
  conformed,
  cropRect,
  cursorOf,
  dragged,
  emptyCropState,
  gestureOf,
  nudged,
  rotated,
  shownSize,
  zoomed,
  type CropRules,
  type CropState,
} from './cropState';
import { CURSORS, toScreen } from './geometry';

const rules: CropRules = { ratio: undefined, min: 10, mode: 'contain' };
const image = { width: 400, height: 300 };
// A 500 × 400 viewport: the 400 × 300 image fits at 1.17 (16 px margins), centred.
const start = (): CropState => begun({ ...emptyCropState, port: { width: 500, height: 400 } }, image, 0, false, rules);

describe('the cropper state', () => {
  it('begins with 80 % of the image, centred, the view fitted', () => {
    const s = start();
    expect(s.crop).toEqual({ x: 40, y: 30, width: 320, height: 240 });
    expect(s.view.scale).toBeCloseTo(1.17);
    expect(s.view.x).toBeCloseTo(16);
    expect(s.view.y).toBeCloseTo(24.5);
    expect(cropRect(s)).toEqual({ x: 40, y: 30, width: 320, height: 240, rotation: 0 });
    expect(begun(s, image, 0, true, rules).crop).toEqual({ x: 0, y: 0, width: 400, height: 300 });
  });

  it('turns the crop with the image and fits the view again', () => {
    const s = rotated(start(), 1, rules);
    expect([s.rotation, shownSize(s)]).toEqual([1, { width: 300, height: 400 }]);
    expect(s.crop).toEqual({ x: 30, y: 40, width: 240, height: 320 });
    expect(s.view.scale).toBeCloseTo(368 / 400);
    const back = [1, 1, 1].reduce<CropState>((t) => rotated(t, 1, rules), s);
    expect([back.rotation, back.crop]).toEqual([0, start().crop]);
    expect(rotated(start(), -1, rules).rotation).toBe(3);
  });

  it('zooms about the crop centre, which stays where it was on the screen', () => {
    const s = start();
    const z = zoomed(s, 1.2);
    expect(z.view.scale).toBeCloseTo(s.view.scale * 1.2);
    const centre = (t: CropState) => {
      const r = toScreen(t.crop, t.view);
      return [r.x + r.width / 2, r.y + r.height / 2];
    };
    expect(centre(z)[0]).toBeCloseTo(centre(s)[0]);
    expect(centre(z)[1]).toBeCloseTo(centre(s)[1]);
  });

  it('conforms the crop to a new ratio', () => {
    const s = conformed(start(), { ...rules, ratio: 1 });
    expect(s.crop.width).toBeCloseTo(s.crop.height);
  });

  it('chooses the gesture by what the first pointer is on', () => {
    const s = start();
    const box = toScreen(s.crop, s.view);
    const inside = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    expect(gestureOf(s, [], 'mouse')).toBeUndefined();
    expect(gestureOf(s, [inside], 'mouse')).toEqual({ kind: 'move', from: inside, crop: s.crop });
    expect(gestureOf(s, [{ x: box.x, y: box.y }], 'mouse')?.kind).toBe('nw');
    // A finger is less precise: 15 px off the corner is still the handle, for a mouse it is the image.
    const near = { x: box.x - 15, y: box.y - 15 };
    expect(gestureOf(s, [near], 'touch')?.kind).toBe('nw');
    expect(gestureOf(s, [near], 'mouse')).toEqual({ kind: 'pan', from: near, view: s.view });
    expect(gestureOf(s, [inside, { x: inside.x + 100, y: inside.y }], 'touch')).toEqual({
      kind: 'pinch',
      from: { x: inside.x + 50, y: inside.y },
      dist: 100,
      view: s.view,
    });
  });

  it('moves and resizes the crop by screen pixels over the scale, within the image', () => {
    const s = start();
    const from = { x: 250, y: 200 };
    const move = gestureOf(s, [from], 'mouse')!;
    const to = { x: from.x + 11.7, y: from.y };
    expect(cropRect(dragged(s, move, [to], to, rules))).toEqual({ x: 50, y: 30, width: 320, height: 240, rotation: 0 });
    const far = { x: from.x + 1000, y: from.y + 1000 };
    expect(dragged(s, move, [far], far, rules).crop).toEqual({ x: 80, y: 60, width: 320, height: 240 });
    const resize = { kind: 'se' as const, from, crop: s.crop };
    expect(cropRect(dragged(s, resize, [to], to, rules))).toEqual({ x: 40, y: 30, width: 330, height: 240, rotation: 0 });
  });

  it('pans and pinches the view, not the crop', () => {
    const z = zoomed(start(), 2);
    const pan = { kind: 'pan' as const, from: { x: 100, y: 100 }, view: z.view };
    const panned = dragged(z, pan, [{ x: 90, y: 100 }], { x: 90, y: 100 }, rules);
    expect([panned.view.x, panned.view.y, panned.crop]).toEqual([z.view.x - 10, z.view.y, z.crop]);
    const a = { x: 200, y: 200 };
    const pinch = gestureOf(z, [a, { x: 300, y: 200 }], 'touch')!;
    const pinched = dragged(z, pinch, [a, { x: 250, y: 200 }], { x: 250, y: 200 }, rules);
    expect(pinched.view.scale).toBeCloseTo(z.view.scale / 2);
    expect(pinched.crop).toBe(z.crop);
  });

  it('nudges the crop with the arrows and resizes it with Alt', () => {
    const s = start();
    expect(nudged(s, { kind: 'move', dx: 5, dy: -5 }, rules).crop).toEqual({ x: 45, y: 25, width: 320, height: 240 });
    expect(nudged(s, { kind: 'resize', handle: 'e', dx: 5, dy: 0 }, rules).crop).toEqual({ x: 40, y: 30, width: 325, height: 240 });
    expect(nudged(s, { kind: 'resize', handle: 's', dx: 0, dy: -300 }, rules).crop).toEqual({ x: 40, y: 30, width: 320, height: 10 });
  });

  it('shows the cursor of the gesture, else of what is under the pointer', () => {
    const s = start();
    const box = toScreen(s.crop, s.view);
    expect(cursorOf(s, undefined)).toBe('grab');
    expect(cursorOf(s, undefined, { x: box.x + box.width, y: box.y })).toBe(CURSORS.ne);
    expect(cursorOf(s, undefined, { x: box.x + 50, y: box.y + 50 })).toBe(CURSORS.move);
    expect(cursorOf(s, { kind: 'pan', from: { x: 0, y: 0 }, view: s.view })).toBe('grabbing');
    expect(cursorOf(s, { kind: 'pinch', from: { x: 0, y: 0 }, dist: 1, view: s.view })).toBe('grab');
  });
});
