// A PNG's structure: its header, the still image and, in an APNG, its frames with their
// controls, and the role of every chunk in the order the file has them, for the writer to
// follow. Only lengths, CRCs and the rules of the format are checked here; no pixel is decoded.
import { damaged, PngError, put32, readChunks, u16, u32, type Chunk } from './chunks';
import { readHeader, type Header } from './header';
import type { Rect } from './rearrange';

export interface FrameControl extends Rect {
  delayNum: number;
  delayDen: number;
  /** 0 none, 1 background, 2 previous. */
  dispose: number;
  /** 0 source, 1 over. */
  blend: number;
}

export interface Image {
  /** Its place on the canvas (the whole canvas for the still image). */
  rect: Rect;
  /** Set for the frames of an animation (the still image too when it is the first frame). */
  control?: FrameControl;
  /** The zlib stream, split as the file has it. */
  parts: Uint8Array[];
}

export type Role =
  | { kind: 'header' | 'animation' | 'end' | 'ancillary' | 'ignored' }
  | { kind: 'control'; image: number }
  | { kind: 'data'; image: number; first: boolean };

export interface Structure {
  header: Header;
  chunks: Chunk[];
  roles: Role[];
  /** The still image first, then the frames in the order they are shown. */
  images: Image[];
  /** acTL's loop count, when the file is an APNG. */
  plays?: number;
  /** The eXIf chunk before the image data, which browsers read the orientation of. */
  exif?: Uint8Array;
  palette?: Uint8Array;
  transparency?: Uint8Array;
}

export function readStructure(bytes: Uint8Array): Structure {
  const chunks = readChunks(bytes);
  if (chunks[0]?.type !== 'IHDR') throw damaged('the first chunk is not IHDR');
  const header = readHeader(chunks[0].data);
  const canvas = { x: 0, y: 0, width: header.width, height: header.height };
  const s: Structure = { header, chunks, roles: [{ kind: 'header' }], images: [{ rect: canvas, parts: [] }] };
  // 0 before the image data, 1 within it, 2 after it.
  let stage = 0;
  let animated = false;
  for (let i = 1; i < chunks.length; i++) {
    const { type, data } = chunks[i];
    if (stage === 1 && type !== 'IDAT') stage = 2;
    if (type === 'IDAT') {
      if (stage === 2) throw damaged('IDAT chunks that are not consecutive');
      s.roles.push({ kind: 'data', image: 0, first: stage === 0 });
      s.images[0].parts.push(data);
      stage = 1;
    } else if (type === 'IEND') {
      s.roles.push({ kind: 'end' });
    } else if (type === 'IHDR') {
      throw damaged('a second IHDR');
    } else if (type === 'acTL' || type === 'fcTL' || type === 'fdAT') {
      // Animation chunks after the image data began are not an animation (browsers show the still).
      if (type === 'acTL' && stage === 0 && data.length === 8) {
        animated = true;
        s.plays = u32(data, 4);
      }
      if (!animated || type === 'acTL') {
        s.roles.push({ kind: animated ? 'animation' : 'ignored' });
      } else if (type === 'fcTL') {
        const control = readControl(data, header, s.images.length);
        if (stage === 0) {
          if (s.images[0].control) throw damaged('two fcTL chunks before the image data');
          if (control.x || control.y || control.width !== header.width || control.height !== header.height) throw damaged('the still image\'s fcTL is not the whole canvas');
          s.images[0].control = control;
          s.roles.push({ kind: 'control', image: 0 });
        } else {
          s.images.push({ rect: control, control, parts: [] });
          s.roles.push({ kind: 'control', image: s.images.length - 1 });
        }
      } else {
        const image = s.images.length - 1;
        if (image === 0 || data.length < 4) throw damaged('an fdAT chunk outside a frame');
        s.roles.push({ kind: 'data', image, first: s.images[image].parts.length === 0 });
        s.images[image].parts.push(data.subarray(4));
      }
    } else {
      if (type === 'PLTE') s.palette = data;
      if (type === 'tRNS') s.transparency = data;
      if (type === 'eXIf' && stage === 0) s.exif = data;
      s.roles.push({ kind: 'ancillary' });
    }
  }
  if (stage === 0) throw damaged('no IDAT chunk');
  if (header.colourType === 3 && !s.palette) throw damaged('a palette image without PLTE');
  s.images.forEach((im, n) => {
    if (im.parts.length === 0) throw damaged(`frame ${n} has no data`);
  });
  return s;
}

function readControl(d: Uint8Array, h: Header, n: number): FrameControl {
  if (d.length !== 26) throw damaged(`fcTL ${n} is ${d.length} bytes, not 26`);
  const c = { width: u32(d, 4), height: u32(d, 8), x: u32(d, 12), y: u32(d, 16), delayNum: u16(d, 20), delayDen: u16(d, 22), dispose: d[24], blend: d[25] };
  if (c.width === 0 || c.height === 0 || c.x + c.width > h.width || c.y + c.height > h.height) {
    throw damaged(`frame ${n} (${c.width}×${c.height} at ${c.x},${c.y}) does not fit the ${h.width}×${h.height} canvas`);
  }
  if (c.dispose > 2 || c.blend > 1) throw new PngError('damaged', `frame ${n}: dispose ${c.dispose}, blend ${c.blend}`);
  return c;
}

/** fcTL's data after its sequence number. */
export function writeControl(c: FrameControl): Uint8Array {
  const d = new Uint8Array(22);
  [c.width, c.height, c.x, c.y].forEach((v, i) => put32(d, i * 4, v));
  d.set([c.delayNum >> 8, c.delayNum & 0xff, c.delayDen >> 8, c.delayDen & 0xff, c.dispose, c.blend], 16);
  return d;
}

export function writeAnimation(frames: number, plays: number): Uint8Array {
  const d = new Uint8Array(8);
  put32(d, 0, frames);
  put32(d, 4, plays);
  return d;
}
