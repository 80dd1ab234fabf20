// Test images made by the tests themselves: PNGs encoded here (zlib + CRC), JPEGs encoded by the
// browser, and pixel reading of whatever the page saves, decoded by the browser.
import type { Page } from '@playwright/test';
import { crc32, deflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row-major. */
  data: number[];
}

/** A small image whose every pixel differs: red = x, green = y, blue and alpha fixed. */
export function gradient(width: number, height: number): Pixels {
  const data: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.push(x * 20, y * 20, 100, 255);
  return { width, height, data };
}

/** A lossless PNG of the pixels (8-bit RGBA, no filter), with `ancillary` chunks before its data. */
export function png({ width, height, data }: { width: number; height: number; data: number[] | Uint8Array }, ancillary: [string, Buffer][] = []): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([len, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height); // each row: filter 0, then its pixels
  for (let y = 0; y < height; y++) rows.set(data.slice(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...ancillary.map(([type, body]) => chunk(type, body)),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The pixels the browser decodes from image bytes. */
export async function decode(page: Page, bytes: Buffer): Promise<Pixels> {
  return page.evaluate(async (b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bin]));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width: bitmap.width, height: bitmap.height, data: [...data] };
  }, bytes.toString('base64'));
}

/** A JPEG of flat colour blocks (which survive compression), encoded by the browser. */
export async function blocksJpeg(page: Page, width: number, height: number): Promise<Buffer> {
  const b64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = new OffscreenCanvas(w, h);
      const ctx = canvas.getContext('2d')!;
      const colours = ['#d00000', '#00a000', '#0000c0', '#e0e000'];
      for (let i = 0; i < 4; i++) {
        ctx.fillStyle = colours[i]!;
        ctx.fillRect((i % 2) * (w / 2), Math.floor(i / 2) * (h / 2), w / 2, h / 2);
      }
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 1 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    [width, height] as const,
  );
  return Buffer.from(b64, 'base64');
}

/** The pixel at (x, y) as [r, g, b, a]. */
export function at(p: Pixels, x: number, y: number): number[] {
  const i = (y * p.width + x) * 4;
  return p.data.slice(i, i + 4);
}
