// Lossless GIF flips, quarter turns and crops, animations included: every frame's indices are
// decoded, moved and encoded again, and nothing else changes. The colour tables (global and
// local) are copied byte for byte, and every frame keeps its delay, disposal method,
// transparency and user-input flag; the loop count (NETSCAPE2.0 or ANIMEXTS), comments and
// other application extensions are copied as they are. Interlaced frames come out
// non-interlaced. Plain-text extensions are dropped: their text grid is placed on the screen and
// cannot be turned, and no browser draws them, so what a browser shows is unchanged.
import { concat } from '../../../../../lib/image/bytes';
import { outputSize, swapsAxes, type Transform } from '../../../../../lib/image/transform';
import { parseGif, TRAILER, type GifFailure } from './blocks';
import { rewriteImage, type FrameContext } from './frame';
import { intersect, type Rect } from './geometry';
import { LzwEncoder } from './lzw';

export type { Rect } from './geometry';

export interface GifLimits {
  /** The most frames × screen pixels to decode (the same bound as a still image's pixels). */
  maxPixels: number;
}

export type GifReason = GifFailure['reason'] | 'badCrop';

export type GifResult =
  | { ok: true; bytes: Uint8Array; width: number; height: number; frames: number }
  | { ok: false; reason: GifReason; detail: string };

/**
 * `crop` is a rectangle of the input's logical screen, in its pixels, as for the other formats:
 * it is cut first and then transformed. Untrusted bytes give a reason, never an exception.
 */
export function flipGifLossless(bytes: Uint8Array, transform: Transform, crop: Rect | undefined, limits: GifLimits): GifResult {
  try {
    return flip(bytes, transform, crop, limits);
  } catch (err) {
    // Nothing above should throw on any input; were it to, the caller still gets a reason.
    return { ok: false, reason: 'damaged', detail: String(err) };
  }
}

function flip(bytes: Uint8Array, transform: Transform, crop: Rect | undefined, limits: GifLimits): GifResult {
  const gif = parseGif(bytes, limits.maxPixels);
  if ('reason' in gif) return { ok: false, ...gif };
  const screen = { x: 0, y: 0, width: gif.width, height: gif.height };
  const box = crop ?? screen;
  if (!isWithin(box, screen)) {
    return { ok: false, reason: 'badCrop', detail: `the crop ${box.width}×${box.height} at (${box.x}, ${box.y}) is not whole pixels within the ${gif.width}×${gif.height} screen` };
  }
  const size = outputSize(transform, box.width, box.height);
  const context: FrameContext = { bytes, box, transform, encoder: new LzwEncoder(), globalColours: (gif.globalTable?.length ?? 0) / 3 };
  const body: Uint8Array[] = [];
  let addedControl = false;
  let n = 0;
  for (const block of gif.blocks) {
    if (block.kind === 'extensions') {
      body.push(block.bytes);
      continue;
    }
    const frame = rewriteImage(block, ++n, context);
    if ('reason' in frame) return { ok: false, ...frame };
    body.push(...frame.parts);
    addedControl ||= frame.addedControl;
  }
  const version = addedControl ? 'GIF89a' : gif.version;
  const head = new Uint8Array(13);
  for (let i = 0; i < 6; i++) head[i] = version.charCodeAt(i);
  head.set([size.width & 0xff, size.width >> 8, size.height & 0xff, size.height >> 8, gif.packed, gif.background, aspect(gif.aspect, transform)], 6);
  const parts = [head, ...(gif.globalTable ? [gif.globalTable] : []), ...body, Uint8Array.of(TRAILER)];
  return { ok: true, bytes: concat(parts), ...size, frames: gif.frames };
}

/** Whether `box` is whole pixels, not empty, and inside `screen`. */
function isWithin(box: Rect, screen: Rect): boolean {
  const inside = intersect(box, screen);
  return [box.x, box.y, box.width, box.height].every(Number.isInteger) && inside?.width === box.width && inside.height === box.height;
}

/**
 * The pixel aspect ratio byte N stands for (N + 15) / 64, width over height; a quarter turn
 * inverts it, to the nearest value the byte can hold. 0 (no ratio given, as nearly always) stays.
 */
function aspect(n: number, t: Transform): number {
  if (n === 0 || !swapsAxes(t)) return n;
  return Math.min(255, Math.max(1, Math.round(4096 / (n + 15) - 15)));
}
