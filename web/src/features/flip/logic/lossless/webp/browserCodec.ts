// The browser's WebP decoder and encoder, for the worker. Decoding goes through
// createImageBitmap with premultiplyAlpha 'none' and colorSpaceConversion 'none', so the pixels
// are the file's own (a premultiplied round trip would shift translucent colours).
import type { WebpCodec } from './codec';

export const browserCodec: WebpCodec = {
  async decode(still) {
    const bitmap = await createImageBitmap(new Blob([still as Uint8Array<ArrayBuffer>], { type: 'image/webp' }), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    try {
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error(`no 2D context for ${bitmap.width}×${bitmap.height} pixels`);
      ctx.drawImage(bitmap, 0, 0);
      return { width: bitmap.width, height: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
    } finally {
      bitmap.close();
    }
  },
  async encodeLossy(px, quality) {
    const canvas = new OffscreenCanvas(px.width, px.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error(`no 2D context for ${px.width}×${px.height} pixels`);
    ctx.putImageData(new ImageData(px.data as Uint8ClampedArray<ArrayBuffer>, px.width, px.height), 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/webp', quality });
    if (blob.type !== 'image/webp') throw new Error(`the browser wrote ${blob.type || 'nothing'} instead of WebP`);
    return new Uint8Array(await blob.arrayBuffer());
  },
};
