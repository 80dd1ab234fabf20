// Browser-only: reads an image's bytes, decodes it upright and at most maxImageSize, and draws crops.
import { jpegOrientation, withOrientation, type Orientation } from '../lib/image/exif';
import { canvasMatrix, fromExifOrientation, outputSize } from '../lib/image/transform';
import { multiply, outputMatrix, type Rect, type Rotation, type Size } from './geometry';

/** Bytes enough to hold every APP segment a JPEG may put before its orientation. */
const HEAD_BYTES = 256 * 1024;

type Drawable = CanvasImageSource & { width: number; height: number };

export interface LoadedImage extends Size {
  /** The upright pixels, possibly downscaled: drawn at width × height (the natural upright size). */
  texture: Drawable;
  /** Texture pixels per natural pixel (≤ 1). */
  scale: number;
  orientation: Orientation;
}

async function decode(source: Blob | string): Promise<Drawable> {
  if (typeof source !== 'string') {
    try {
      return await createImageBitmap(source);
    } catch {
      // SVG and a few others only decode through an <img>.
    }
  }
  const url = typeof source === 'string' ? source : URL.createObjectURL(source);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    if (!img.naturalWidth || !img.naturalHeight) throw new Error('The image has no size');
    return img;
  } finally {
    if (typeof source !== 'string') URL.revokeObjectURL(url);
  }
}

function sizeOf(d: Drawable): Size {
  return d instanceof HTMLImageElement ? { width: d.naturalWidth, height: d.naturalHeight } : { width: d.width, height: d.height };
}

/**
 * Loads `src` upright: the orientation comes from the file's bytes; the decoder is given bytes
 * whose orientation says 1, so every browser returns the stored pixels, and we turn them.
 */
export async function loadImage(src: Blob | string, maxSize: number): Promise<LoadedImage> {
  let blob: Blob | undefined;
  if (typeof src === 'string') {
    try {
      const res = await fetch(src);
      if (res.ok) blob = await res.blob();
    } catch {
      // A CSP without blob: in connect-src, say: let the browser decode (and orient) it.
    }
  } else blob = src;

  let orientation: Orientation = 1;
  let source: Blob | string = blob ?? (src);
  if (blob) {
    const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
    orientation = jpegOrientation(head);
    if (orientation !== 1) source = new Blob([withOrientation(head, 1) as BlobPart, blob.slice(head.length)], { type: blob.type });
  }
  const decoded = await decode(source);
  const stored = sizeOf(decoded);
  const toUpright = fromExifOrientation(orientation);
  const upright = outputSize(toUpright, stored.width, stored.height);
  const scale = Math.min(1, maxSize / Math.max(upright.width, upright.height));
  if (scale === 1 && orientation === 1) return { ...upright, texture: decoded, scale, orientation };

  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(upright.width * scale));
  canvas.height = Math.max(1, Math.round(upright.height * scale));
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.setTransform(...multiply([canvas.width / upright.width, 0, 0, canvas.height / upright.height, 0, 0], canvasMatrix(toUpright, stored.width, stored.height)));
  ctx.drawImage(decoded, 0, 0, stored.width, stored.height);
  release(decoded);
  return { ...upright, texture: canvas, scale: canvas.width / upright.width, orientation };
}

export function release(d: Drawable | undefined): void {
  if (typeof ImageBitmap !== 'undefined' && d instanceof ImageBitmap) d.close();
  else if (d instanceof HTMLCanvasElement) d.width = d.height = 0;
}

/** Draws `crop` (image coordinates after `rotation`) of `img` into a canvas of `out` size. */
export function drawCrop(
  img: LoadedImage,
  rotation: Rotation,
  crop: Rect,
  out: Size,
  fillColor: string,
  type: string,
  canvas = document.createElement('canvas'),
): HTMLCanvasElement {
  canvas.width = out.width;
  canvas.height = out.height;
  const ctx = canvas.getContext('2d')!;
  // JPEG has no alpha: transparent would turn black, so white unless told otherwise.
  ctx.fillStyle = type === 'jpeg' ? '#fff' : '#0000';
  if (!/^(transparent)?$/i.test(fillColor.trim())) ctx.fillStyle = fillColor; // an invalid colour is ignored
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.setTransform(...outputMatrix(crop, out, rotation, img));
  ctx.drawImage(img.texture, 0, 0, img.width, img.height);
  return canvas;
}

export function toBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The image could not be encoded'))), `image/${type}`, quality),
  );
}
