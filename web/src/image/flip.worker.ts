// Decodes, flips or rotates (and crops) and encodes one image off the main thread, so the page
// never freezes on a large photo. The decoder applies the EXIF orientation ('from-image'), so
// the image is flipped as the camera meant it, and the output, written without an orientation
// tag (or with it reset to 1), never rotates twice in a viewer.
/// <reference lib="webworker" />
import { hasGps, readExif, rewriteExif, withExif } from '../tools/image/exif';
import { canvasMatrix, outputSize } from '../tools/image/transform';
import type { FlipRequest, FlipResponse } from './protocol';

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

  progress('draw');
  const crop = r.crop ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  const size = outputSize(r.transform, crop.width, crop.height);
  let canvas: OffscreenCanvas;
  let ctx: OffscreenCanvasRenderingContext2D | null;
  try {
    canvas = new OffscreenCanvas(size.width, size.height);
    ctx = canvas.getContext('2d');
  } catch (err) {
    bitmap.close();
    throw new FlipFailure('tooLarge', String(err));
  }
  if (!ctx) {
    bitmap.close();
    throw new FlipFailure('tooLarge', `no 2D context for ${size.width}×${size.height}`);
  }
  if (r.output.format === 'jpeg') {
    // JPEG has no transparency: transparent pixels would turn black.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, size.width, size.height);
  }
  ctx.setTransform(...canvasMatrix(r.transform, crop.width, crop.height));
  ctx.drawImage(bitmap, crop.x, crop.y, crop.width, crop.height, 0, 0, crop.width, crop.height);
  bitmap.close();

  progress('encode');
  let blob: Blob;
  try {
    blob = await canvas.convertToBlob({ type: mimes[r.output.format], quality: r.output.quality });
  } catch (err) {
    throw new FlipFailure('tooLarge', String(err));
  }
  if (blob.type !== mimes[r.output.format]) {
    throw new FlipFailure('encode', `the browser wrote ${blob.type || 'nothing'} instead of ${mimes[r.output.format]}`);
  }
  let bytes = await blob.arrayBuffer();
  let locationRemoved = false;

  const exif = r.format === 'jpeg' ? readExif(new Uint8Array(r.bytes)) : undefined;
  if (exif) {
    locationRemoved = hasGps(exif) && r.metadata !== 'keep';
    if (r.metadata !== 'strip' && r.output.format === 'jpeg') {
      const tiff = rewriteExif(exif, { stripGps: r.metadata === 'keep-without-location' });
      if (tiff) bytes = withExif(new Uint8Array(bytes), tiff).slice().buffer;
    }
  }
  return { id: r.id, kind: 'done', bytes, mime: mimes[r.output.format], width: size.width, height: size.height, locationRemoved };
}
