// One image of a GIF rewritten: clipped to the crop, its indices decoded, moved by the
// transform and encoded again with the same minimum code size, colour table and graphic
// control. Two cases need a choice, and both are made so that the result shows what a browser
// shows of the input:
// - A frame wholly outside the crop becomes a 1×1 frame whose only pixel is transparent, drawn
//   at (0, 0) and not disposed of: it changes no pixel, and it keeps its delay, so the timing is
//   unchanged. (Its own disposal could not stay: "restore to background" would clear that pixel.)
// - A frame whose data ends before its last pixel: browsers leave the rest as it was (what lay
//   beneath shows through), so the missing pixels are given the frame's transparent index, or,
//   when it has none, an index that no decoded pixel uses, made transparent.
import type { Transform } from '../../../../../lib/image/transform';
import { IMAGE, INTERLACED, type Control, type GifFailure, type Image } from './blocks';
import { intersect, place, rearrange, rowStarts, type Rect } from './geometry';
import { decodeLzw, type LzwEncoder } from './lzw';

const TRANSPARENT = 0x01;
const DISPOSAL = 0x1c;
const DO_NOT_DISPOSE = 1 << 2;

export interface Rewritten {
  parts: Uint8Array[];
  /** A graphic control was added where the input had none (the file must then be GIF89a). */
  addedControl: boolean;
}

export interface FrameContext {
  bytes: Uint8Array;
  /** The crop, or the whole screen, in the input's pixels. */
  box: Rect;
  transform: Transform;
  encoder: LzwEncoder;
  /** Entries in the global colour table (0 without one). */
  globalColours: number;
}

export function rewriteImage(image: Image, n: number, c: FrameContext): Rewritten | GifFailure {
  const frame = { x: image.left, y: image.top, width: image.width, height: image.height };
  const clip = intersect(frame, c.box);
  if (!clip) return placeholder(image, c.encoder);
  const indices = new Uint8Array(image.width * image.height);
  const result = decodeLzw(c.bytes, image.dataAt, image.minCodeSize, indices);
  if ('error' in result) return { reason: 'damaged', detail: `image ${n}: ${result.error}` };
  let control = image.control;
  let addedControl = false;
  if (result.decoded < indices.length) {
    const colours = image.localTable ? image.localTable.length / 3 : c.globalColours || 256;
    // An index is only usable below the clear code: a transparent index past it marks nothing.
    const codable = 1 << image.minCodeSize;
    const own = control && control.packed & TRANSPARENT && control.transparentIndex < codable ? control.transparentIndex : undefined;
    const fill = own ?? unused(indices.subarray(0, result.decoded), Math.min(colours, codable));
    if (fill === undefined) {
      return { reason: 'damaged', detail: `image ${n}'s data ends after ${result.decoded} of its ${indices.length} pixels, and every colour is in use, so the rest cannot be left transparent` };
    }
    indices.fill(fill, result.decoded);
    addedControl = !control;
    control = { packed: (control?.packed ?? 0) | TRANSPARENT, delay: control?.delay ?? 0, transparentIndex: fill };
  }
  const moved = rearrange(indices, rowStarts(image.width, image.height, (image.packed & INTERLACED) !== 0), { ...clip, x: clip.x - frame.x, y: clip.y - frame.y }, c.transform);
  const at = place(clip, c.box, c.transform);
  return { parts: [...(control ? [controlBytes(control)] : []), ...imageBytes(image, at, c.encoder.encode(moved, image.minCodeSize))], addedControl };
}

function placeholder(image: Image, encoder: LzwEncoder): Rewritten {
  const control: Control = {
    // Keeps the reserved bits and the user-input flag with the delay.
    packed: ((image.control?.packed ?? 0) & ~DISPOSAL) | DO_NOT_DISPOSE | TRANSPARENT,
    delay: image.control?.delay ?? 0,
    transparentIndex: 0,
  };
  const data = encoder.encode(new Uint8Array(1), image.minCodeSize);
  return { parts: [controlBytes(control), ...imageBytes(image, { x: 0, y: 0, width: 1, height: 1 }, data)], addedControl: !image.control };
}

/** The lowest index below `limit` that `indices` do not use. */
function unused(indices: Uint8Array, limit: number): number | undefined {
  const used = new Uint8Array(256);
  for (let i = 0; i < indices.length; i++) used[indices[i]] = 1;
  for (let i = 0; i < limit; i++) if (!used[i]) return i;
  return undefined;
}

export function controlBytes(c: Control): Uint8Array {
  return Uint8Array.of(0x21, 0xf9, 4, c.packed, c.delay & 0xff, c.delay >> 8, c.transparentIndex, 0);
}

/** The image descriptor (never interlaced), the image's own colour table and its data. */
function imageBytes(image: Image, at: Rect, data: Uint8Array): Uint8Array[] {
  const le = (v: number) => [v & 0xff, v >> 8];
  const descriptor = Uint8Array.of(IMAGE, ...le(at.x), ...le(at.y), ...le(at.width), ...le(at.height), image.packed & ~INTERLACED);
  return [descriptor, ...(image.localTable ? [image.localTable] : []), Uint8Array.of(image.minCodeSize), data];
}
