// From an opened image and the visitor's choices to the file to save. Raster images go through
// the worker; an SVG kept as SVG is flipped as vector, in its text; an SVG saved as a raster
// format is drawn here (workers cannot decode SVG).
import { canvasMatrix, outputSize, type Transform } from '../../lib/image/transform';
import { outputFormat, outputName, mimeTypes } from './logic/formats';
import { hasRewriter } from './logic/lossless/registry';
import { transformSvg } from './logic/svg';
import type { FlipClient } from './flipClient';
import type { OpenedImage } from './inspect';
import type { Crop, FlipError, LosslessOutcome } from './protocol';
import type { Settings } from './logic/workspace';

export type Rendered =
  | { ok: true; name: string; blob: Blob; locationRemoved: boolean; inStrips?: boolean; lossless?: LosslessOutcome; width?: number; height?: number }
  | { ok: false; error: FlipError };

/**
 * Whether an image is saved by its format's lossless rewriter (when it can be): kept in its own
 * format, and uncropped where the rewriter takes no crop (JPEG).
 */
export function wantsLossless(image: OpenedImage, crop: Crop | undefined, settings: Settings): boolean {
  return settings.output === 'same' && hasRewriter(image.format, crop !== undefined);
}

export async function render(
  client: FlipClient,
  image: OpenedImage,
  transform: Transform,
  crop: Crop | undefined,
  settings: Settings,
): Promise<Rendered> {
  const format = outputFormat(image.format, settings.output);
  const name = outputName(image.file.name, format);
  if (image.decoded === undefined) return renderSvg(image, transform, crop, format, settings.quality, name);
  if (format === 'svg') return { ok: false, error: 'encode' };
  const r = await client.flip({
    image: image.decoded,
    file: image.file,
    format: image.format,
    transform,
    crop,
    output: { format, quality: settings.quality },
    metadata: settings.metadata,
    lossless: wantsLossless(image, crop, settings) ? { edges: settings.edges } : undefined,
  });
  if (r.kind === 'error') return { ok: false, error: r.error };
  return {
    ok: true,
    // Rewritten in its own format, or re-encoded as `format` (as PNG when drawn in strips).
    name: r.lossless?.done ? outputName(image.file.name, image.format) : r.inStrips ? outputName(image.file.name, 'png') : name,
    blob: new Blob([r.bytes], { type: r.mime }),
    locationRemoved: r.locationRemoved,
    inStrips: r.inStrips,
    lossless: r.lossless,
    width: r.width,
    height: r.height,
  };
}

/** An SVG: flipped as vector when kept as SVG, else drawn here (workers cannot decode SVG). */
async function renderSvg(
  image: OpenedImage,
  transform: Transform,
  crop: Crop | undefined,
  format: ReturnType<typeof outputFormat>,
  quality: number,
  name: string,
): Promise<Rendered> {
  if (format === 'svg') {
    const text = image.svg === undefined ? undefined : transformSvg(image.svg, transform);
    return text === undefined
      ? { ok: false, error: 'decode' }
      : { ok: true, name, blob: new Blob([text], { type: mimeTypes.svg }), locationRemoved: false };
  }
  const blob = await rasterise(image, transform, crop, format, quality);
  return blob ? { ok: true, name, blob, locationRemoved: false } : { ok: false, error: 'encode' };
}

async function rasterise(
  image: OpenedImage,
  transform: Transform,
  crop: Crop | undefined,
  format: 'png' | 'jpeg' | 'webp',
  quality: number,
): Promise<Blob | null> {
  const c = crop ?? { x: 0, y: 0, width: image.width, height: image.height };
  const size = outputSize(transform, c.width, c.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  if (format === 'jpeg') {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, size.width, size.height);
  }
  ctx.setTransform(...canvasMatrix(transform, c.width, c.height));
  ctx.drawImage(image.preview, c.x, c.y, c.width, c.height, 0, 0, c.width, c.height);
  return new Promise((resolve) => canvas.toBlob(resolve, mimeTypes[format], quality));
}
