// libwebp (compiled to WebAssembly, @jsquash/webp) as the tests' independent decoder and lossy
// encoder: the codec the rewriter is given in Node, where the browser's is not.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Pixels } from '../../../../../../src/lib/image/transform';
import type { WebpCodec } from '../../../../../../src/features/flip/logic/lossless/webp/index';

// The wasm glue returns an ImageData, which Node lacks.
(globalThis as { ImageData?: unknown }).ImageData ??= class {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
};

const root = dirname(createRequire(import.meta.url).resolve('@jsquash/webp/package.json'));
type Decode = (b: ArrayBuffer) => Promise<Pixels>;
type Encode = (px: Pixels, o: object) => Promise<ArrayBuffer>;
let loaded: Promise<{ decode: Decode; encode: Encode }> | undefined;

function load(): Promise<{ decode: Decode; encode: Encode }> {
  loaded ??= (async () => {
    const dec = (await import('@jsquash/webp/decode.js')) as unknown as { default: Decode; init(m: WebAssembly.Module): Promise<void> };
    const enc = (await import('@jsquash/webp/encode.js')) as unknown as { default: Encode; init(m: WebAssembly.Module): Promise<void> };
    await dec.init(await WebAssembly.compile(readFileSync(join(root, 'codec/dec/webp_dec.wasm'))));
    await enc.init(await WebAssembly.compile(readFileSync(join(root, 'codec/enc/webp_enc.wasm'))));
    return { decode: dec.default, encode: enc.default };
  })();
  return loaded;
}

/** A still WebP decoded by libwebp: RGBA, not premultiplied. */
export async function decodeStill(file: Uint8Array): Promise<Pixels> {
  const { decode } = await load();
  const img = await decode(file.slice().buffer);
  return { width: img.width, height: img.height, data: new Uint8ClampedArray(img.data) };
}

export const libwebpCodec: WebpCodec = {
  decode: decodeStill,
  async encodeLossy(px, quality) {
    const { encode } = await load();
    return new Uint8Array(await encode(px, { quality: Math.round(quality * 100), alpha_quality: 100, lossless: 0 }));
  },
};
