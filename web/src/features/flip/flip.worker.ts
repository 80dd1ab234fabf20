// Decodes, flips or rotates (and crops) and encodes images off the main thread, so the page
// never freezes on a large photo. An image is decoded once, when it is opened (for its preview),
// and its pixels are kept for the flip within a memory budget. The decoder applies the EXIF
// orientation ('from-image'), so the image is flipped as the camera meant it, and the output,
// written without an orientation tag (or with it reset to 1), never rotates twice in a viewer.
/// <reference lib="webworker" />
import { withChosenExif } from '../../lib/image/exif';
import { canvasMatrix, outputSize, type Transform } from '../../lib/image/transform';
import { pngFromStrips } from './logic/pngStrips';
import {
  KEPT_PIXELS,
  MAX_CANVAS_PIXELS,
  type Crop,
  type FlipRequest,
  type LosslessOutcome,
  type OpenRequest,
  type RegionRequest,
  type WorkerRequest,
  type WorkerResponse,
} from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const mimes = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

class FlipFailure extends Error {
  constructor(
    readonly error: 'decode' | 'tooLarge' | 'encode',
    detail: string,
  ) {
    super(detail);
  }
}

/** Decoded images by handle, least recently used first, within KEPT_PIXELS. */
const kept = new Map<number, ImageBitmap>();
/** Handles of images the visitor removed (never reused). */
const removed = new Set<number>();

function keep(image: number, bitmap: ImageBitmap) {
  let total = bitmap.width * bitmap.height;
  if (total > KEPT_PIXELS) return false;
  for (const b of kept.values()) total += b.width * b.height;
  for (const [key, b] of kept) {
    if (total <= KEPT_PIXELS) break;
    total -= b.width * b.height;
    forget(key);
  }
  kept.set(image, bitmap);
  return true;
}

function forget(image: number) {
  kept.get(image)?.close();
  kept.delete(image);
}

self.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const r = e.data;
  if (r.kind === 'forget') {
    removed.add(r.image);
    return forget(r.image);
  }
  const post = (m: WorkerResponse, transfer: Transferable[] = []) => self.postMessage(m, transfer);
  try {
    if (r.kind === 'open') {
      const opened = await open(r);
      post(opened, [opened.preview]);
    } else if (r.kind === 'region') {
      const bitmap = await withPixels(r.image, r.file, () => {}, (pixels) => region(pixels, r));
      post({ id: r.id, kind: 'region', bitmap }, [bitmap]);
    } else {
      const done = await flip(r, (stage) => post({ id: r.id, kind: 'progress', stage }));
      post(done, [done.bytes]);
    }
  } catch (err) {
    const failure = err instanceof FlipFailure ? err : new FlipFailure('encode', String(err));
    post({ id: r.id, kind: 'error', error: failure.error, detail: failure.message });
  }
};

async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (err) {
    throw new FlipFailure('decode', String(err));
  }
}

async function open(r: OpenRequest): Promise<Extract<WorkerResponse, { kind: 'opened' }>> {
  const full = await decode(r.file);
  const { width, height } = full;
  const scale = Math.min(1, r.previewSide / Math.max(width, height));
  const preview = await createImageBitmap(full, {
    resizeWidth: Math.max(1, Math.round(width * scale)),
    resizeHeight: Math.max(1, Math.round(height * scale)),
    resizeQuality: 'medium',
  });
  if (!keep(r.image, full)) full.close();
  return { id: r.id, kind: 'opened', width, height, preview };
}

type Done = Extract<WorkerResponse, { kind: 'done' }>;

async function flip(r: FlipRequest, progress: (stage: 'decode' | 'draw' | 'encode') => void): Promise<Done> {
  let lossless: LosslessOutcome | undefined;
  if (r.lossless) {
    const input = new Uint8Array(await r.file.arrayBuffer());
    // Loaded the first time a JPEG is saved as JPEG, not with the page.
    const { flipJpegLossless } = await import('./logic/lossless/jpeg');
    const result = flipJpegLossless(input, r.transform, r.lossless.edges);
    if (result.ok) {
      const { bytes, locationRemoved } = withChosenExif(result.bytes, input, r.metadata);
      const { width, height, trimmed } = result;
      return { id: r.id, kind: 'done', bytes: bytes.slice().buffer, mime: mimes.jpeg, width, height, locationRemoved, inStrips: false, lossless: { done: true, trimmed } };
    }
    lossless = { done: false, reason: result.reason };
  }
  return { ...(await reencode(r, progress)), lossless };
}

/** Decodes (unless the pixels were kept), draws flipped and encodes. */
function reencode(r: FlipRequest, progress: (stage: 'decode' | 'draw' | 'encode') => void): Promise<Done> {
  return withPixels(r.image, r.file, progress, (bitmap) => flipPixels(bitmap, r, progress));
}

/** Runs `run` on an image's pixels: those kept, else the file decoded again (and kept after). */
async function withPixels<T>(image: number, file: Blob, progress: (stage: 'decode') => void, run: (bitmap: ImageBitmap) => T | Promise<T>): Promise<T> {
  if (removed.has(image)) throw new FlipFailure('decode', 'the image was removed');
  // Taken out while in use, so that an image opened meanwhile cannot push it out and close it.
  let bitmap = kept.get(image);
  kept.delete(image);
  if (!bitmap) {
    progress('decode');
    bitmap = await decode(file);
  }
  try {
    return await run(bitmap);
  } finally {
    // Kept again, as the most recently used, for the next use, unless removed meanwhile.
    if (removed.has(image) || !keep(image, bitmap)) bitmap.close();
  }
}

/** A rectangle of the result at full resolution, one image pixel per bitmap pixel. */
function region(bitmap: ImageBitmap, r: RegionRequest): ImageBitmap {
  const crop = r.crop ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  const { x, y, width, height } = r.rect;
  return draw(bitmap, r.transform, crop, x, y, width, height).transferToImageBitmap();
}

async function flipPixels(
  bitmap: ImageBitmap,
  r: FlipRequest,
  progress: (stage: 'draw' | 'encode') => void,
): Promise<Done> {
  const input = r.format === 'jpeg' ? new Uint8Array(await r.file.arrayBuffer()) : undefined;

  progress('draw');
  const crop = r.crop ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  const size = outputSize(r.transform, crop.width, crop.height);
  const fits = r.maxCanvasPixels === undefined || size.width * size.height <= r.maxCanvasPixels;
  const whole = fits ? await drawWhole(bitmap, r, crop, size, progress) : undefined;
  if (!whole) {
    // The browser would not hold the result in one canvas: draw it in strips, write a PNG.
    const stripRows = Math.max(1, Math.floor((r.maxCanvasPixels ?? MAX_CANVAS_PIXELS) / size.width));
    const png = await pngFromStrips(size.width, size.height, stripRows, (y, rows) => drawStrip(bitmap, r, crop, size.width, y, rows));
    const { locationRemoved } = withChosenExif(png, input ?? png, 'strip');
    return { id: r.id, kind: 'done', bytes: png.slice().buffer, mime: 'image/png', ...size, locationRemoved, inStrips: true };
  }
  const encoded = new Uint8Array(await whole.arrayBuffer());
  // Only JPEG output carries EXIF; from any other output the location is gone with the rest.
  const { bytes, locationRemoved } = withChosenExif(encoded, input ?? encoded, r.output.format === 'jpeg' ? r.metadata : 'strip');
  return { id: r.id, kind: 'done', bytes: bytes === encoded ? encoded.buffer : bytes.slice().buffer, mime: mimes[r.output.format], ...size, locationRemoved, inStrips: false };
}

/** The result in one canvas, encoded; undefined when the browser cannot hold a canvas that big. */
async function drawWhole(
  bitmap: ImageBitmap,
  r: FlipRequest,
  crop: Crop,
  size: { width: number; height: number },
  progress: (stage: 'encode') => void,
): Promise<Blob | undefined> {
  try {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) return undefined;
    if (r.output.format === 'jpeg' && r.format !== 'jpeg') {
      // JPEG has no transparency: transparent pixels would turn black. (A JPEG has none.)
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, size.width, size.height);
    }
    ctx.setTransform(...canvasMatrix(r.transform, crop.width, crop.height));
    ctx.drawImage(bitmap, crop.x, crop.y, crop.width, crop.height, 0, 0, crop.width, crop.height);
    progress('encode');
    const blob = await canvas.convertToBlob({ type: mimes[r.output.format], quality: r.output.quality });
    if (blob.type !== mimes[r.output.format]) throw new FlipFailure('encode', `the browser wrote ${blob.type || 'nothing'} instead of ${mimes[r.output.format]}`);
    return blob;
  } catch (err) {
    if (err instanceof FlipFailure) throw err;
    if (size.width * size.height <= MAX_CANVAS_PIXELS) throw new FlipFailure('encode', String(err));
    return undefined; // too big for this browser's canvas
  }
}

/** Output rows [y, y + rows) drawn on a canvas of their own, as RGBA. */
function drawStrip(bitmap: ImageBitmap, r: FlipRequest, crop: Crop, width: number, y: number, rows: number): Uint8ClampedArray {
  return draw(bitmap, r.transform, crop, 0, y, width, rows).getContext('2d')!.getImageData(0, 0, width, rows).data;
}

/** The result's pixels in [x, x + width) × [y, y + height), on a canvas of their own. */
function draw(bitmap: ImageBitmap, transform: Transform, crop: Crop, x: number, y: number, width: number, height: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new FlipFailure('tooLarge', `no 2D context for ${width}×${height} pixels`);
  ctx.imageSmoothingEnabled = false; // quarter turns and mirrors move whole pixels
  ctx.setTransform(1, 0, 0, 1, -x, -y);
  ctx.transform(...canvasMatrix(transform, crop.width, crop.height));
  ctx.drawImage(bitmap, crop.x, crop.y, crop.width, crop.height, 0, 0, crop.width, crop.height);
  return canvas;
}
