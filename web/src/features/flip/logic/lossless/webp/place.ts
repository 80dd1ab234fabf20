// Frames moved to even offsets without changing what is shown. ANMF stores offsets halved, so
// when a flip or turn puts a frame at an odd x or y, the frame grows by one column or row on
// that side, filled with what keeps the screen unchanged: transparent where the frame is
// alpha-blended, the pixels the canvas already shows where it overwrites. A frame that clears
// its rectangle afterwards (dispose to background) then clears that extra line too; the next
// frame grows to cover it and puts back what it showed, so every frame still looks exactly as
// before (only the last frame's disposal, which nothing follows, is left as it is).
import type { Pixels } from '../../../../../lib/image/transform';
import { Composite, type Rect } from './canvas';

interface Damage {
  rect: Rect;
  /** 1 where the extra clearing removed something, with what it showed (RGBA). */
  mask: Uint8Array;
  values: Uint8ClampedArray;
}

const contains = (r: Rect, x: number, y: number) => x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;

function union(a: Rect | undefined, b: Rect | undefined): Rect {
  if (!a || !b) return a ?? b ?? { x: 0, y: 0, width: 1, height: 1 };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

export class Placer {
  private readonly canvas: Composite;
  private damage: Damage | undefined;

  constructor(width: number, height: number) {
    this.canvas = new Composite(width, height);
  }

  /** The pixels and rectangle to write for a frame showing `px` at `at` (nothing when undefined: a frame outside the crop). */
  place(px: Pixels | undefined, at: Rect | undefined, blend: boolean, dispose: boolean): { px: Pixels; rect: Rect } {
    const wanted = union(at, this.damage?.rect);
    const rect = { x: wanted.x & ~1, y: wanted.y & ~1, width: wanted.width + (wanted.x & 1), height: wanted.height + (wanted.y & 1) };
    if (px && at && rect.x === at.x && rect.y === at.y && rect.width === at.width && rect.height === at.height && !this.damage) {
      this.draw(px, rect, at, blend, dispose);
      return { px, rect };
    }
    const data = new Uint8ClampedArray(rect.width * rect.height * 4);
    const canvas = this.canvas;
    const d = this.damage;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const o = ((y - rect.y) * rect.width + x - rect.x) * 4;
        const own = px && at && contains(at, x, y) ? ((y - at.y) * at.width + x - at.x) * 4 : -1;
        const lost = d && contains(d.rect, x, y) && d.mask[(y - d.rect.y) * d.rect.width + x - d.rect.x] ? ((y - d.rect.y) * d.rect.width + x - d.rect.x) * 4 : -1;
        if (lost >= 0) {
          // The canvas is clear here: the frame must write what should show.
          data.set(d!.values.subarray(lost, lost + 4), o);
          if (own >= 0) Composite.put(data, o, px!.data, own, blend);
          if (blend) unblend(data, o);
        } else if (own >= 0) {
          data.set(px!.data.subarray(own, own + 4), o);
        } else if (!blend) {
          const c = (y * canvas.width + x) * 4;
          data.set(canvas.data.subarray(c, c + 4), o);
        }
      }
    }
    const out = { width: rect.width, height: rect.height, data };
    this.draw(out, rect, at, blend, dispose);
    return { px: out, rect };
  }

  private draw(px: Pixels, rect: Rect, own: Rect | undefined, blend: boolean, dispose: boolean): void {
    this.canvas.draw(px, rect.x, rect.y, blend);
    this.damage = undefined;
    if (!dispose) return;
    // What the extra part of the rectangle shows is lost when it is cleared: remember it.
    const mask = new Uint8Array(rect.width * rect.height);
    const values = new Uint8ClampedArray(rect.width * rect.height * 4);
    let any = false;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const c = (y * this.canvas.width + x) * 4;
        if ((own && contains(own, x, y)) || this.canvas.data[c + 3] === 0) continue;
        const i = (y - rect.y) * rect.width + x - rect.x;
        mask[i] = 1;
        values.set(this.canvas.data.subarray(c, c + 4), i * 4);
        any = true;
      }
    }
    if (any) this.damage = { rect, mask, values };
    this.canvas.clear(rect);
  }
}

/**
 * The pixel that, alpha-blended onto a clear canvas, shows as the pixel at o. Integer blending
 * loses a little there (a colour c at most alphas shows as c - 1), so each channel is raised
 * to the value that shows as wanted; a full 255 at such an alpha cannot be reached and stays
 * one below (the only place where a flipped animation may differ, by 1).
 */
function unblend(px: Uint8ClampedArray, o: number): void {
  const a = px[o + 3];
  if (a === 0 || a === 255) return;
  const scale = Math.floor(0x1000000 / a);
  const shown = (v: number) => Math.floor((v * a * scale) / 0x1000000);
  for (let k = 0; k < 3; k++) {
    const want = px[o + k];
    if (shown(want) !== want && want < 255) px[o + k] = want + 1;
  }
}
