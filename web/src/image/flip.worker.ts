// Decodes, flips or rotates (and crops) and encodes one image off the main thread, so the page
// never freezes on a large photo. The decoder applies the EXIF orientation ('from-image'), so
// the image is flipped as the camera meant it, and the output, written without an orientation
// tag (or with it reset to 1), never rotates twice in a viewer.
/// <reference lib="webworker" />
import { hasGps, readExif, rewriteExif, withExif } from '../tools/image/exif';
import { canvasMatrix, outputSize } from '../tools/image/transform';
import { pngFromStrips } from '../tools/image/pngStrips';
import { MAX_CANVAS_PIXELS, type Crop, type FlipRequest, type FlipResponse } from './protocol';

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

self.onmessage = async (e: MessageEvent<FlipRequest>) => {
  const { id } = e.data;
  const post = (m: FlipResponse, transfer: Transferable[] = []) => self.postMessage(m, transfer);
  try {
    const done = await flip(e.data, (stage) => post({ id, kind: 'progress', stage }));
    post(done, [done.bytes]);
  } catch (err) {
    const failure = err instanceof FlipFailure ? err : new FlipFailure('encode', String(err));
    post({ id, kind: 'error', error: failure.error, detail: failure.message });
  }
};

async function flip(
  r: FlipRequest,
  progress: (stage: 'decode' | 'draw' | 'encode') => void,
): Promise<Extract<FlipResponse, { kind: 'done' }>> {
  progress('decode');
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([r.bytes]), { imageOrientation: 'from-image' });
  } catch (err) {
    throw new FlipFailure('decode', String(err));
  }

  const exif = r.format === 'jpeg' ? readExif(new Uint8Array(r.bytes)) : undefined;
  const locationRemoved = exif !== undefined && hasGps(exif) && (r.metadata !== 'keep' || r.output.format !== 'jpeg');

  progress('draw');
  const crop = r.crop ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  const size = outputSize(r.transform, crop.width, crop.height);
  const fits = r.maxCanvasPixels === undefined || size.width * size.height <= r.maxCanvasPixels;
  const whole = fits ? await drawWhole(bitmap, r, crop, size, progress) : undefined;
  if (!whole) {
    // The browser would not hold the result in one canvas: draw it in strips, write a PNG.
    const stripRows = Math.max(1, Math.floor((r.maxCanvasPixels ?? MAX_CANVAS_PIXELS) / size.width));
    const png = await pngFromStrips(size.width, size.height, stripRows, (y, rows) => drawStrip(bitmap, r, crop, size.width, y, rows));
    bitmap.close();
    return { id: r.id, kind: 'done', bytes: png.slice().buffer, mime: 'image/png', ...size, locationRemoved: exif !== undefined && hasGps(exif), inStrips: true };
  }
  bitmap.close();
  const blob = whole;
  let bytes = await blob.arrayBuffer();
  if (exif && r.metadata !== 'strip' && r.output.format === 'jpeg') {
    const tiff = rewriteExif(exif, { stripGps: r.metadata === 'keep-without-location' });
    if (tiff) bytes = withExif(new Uint8Array(bytes), tiff).slice().buffer;
  }
  return { id: r.id, kind: 'done', bytes, mime: mimes[r.output.format], ...size, locationRemoved, inStrips: false };
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
    if (r.output.format === 'jpeg') {
      // JPEG has no transparency: transparent pixels would turn black.
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
  const canvas = new OffscreenCanvas(width, rows);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new FlipFailure('tooLarge', `no 2D context for a ${width}×${rows} strip`);
  ctx.setTransform(1, 0, 0, 1, 0, -y);
  ctx.transform(...canvasMatrix(r.transform, crop.width, crop.height));
  ctx.drawImage(bitmap, crop.x, crop.y, crop.width, crop.height, 0, 0, crop.width, crop.height);
  return ctx.getImageData(0, 0, width, rows).data;
}
