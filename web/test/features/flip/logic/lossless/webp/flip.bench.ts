// One measurement, not a test: how long flipping lossless WebP files takes in Node and how
// their size compares with libwebp's (cwebp -lossless, img2webp, gif2webp). Run:
//   WEBP_MEASURE='a.webp b.webp' npx vitest bench --run --config web/vite.config.ts web/test/features/flip/logic/lossless/webp/flip.bench.ts
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { bench } from 'vitest';
import { parseTransformKey } from '../../../../../../src/lib/image/transform';
import { flipWebp } from '../../../../../../src/features/flip/logic/lossless/webp/index';
import { libwebpCodec } from './libwebp';

const files = (process.env.WEBP_MEASURE ?? '').split(/\s+/).filter(Boolean);
for (const path of files) {
  bench(
    basename(path),
    async () => {
      const input = new Uint8Array(readFileSync(path));
      const started = performance.now();
      const result = await flipWebp(input, parseTransformKey('r0m')!, { codec: libwebpCodec });
      const ms = performance.now() - started;
      if (!result.ok) throw new Error(result.detail);
      const ratio = result.bytes.length / input.length;
      console.log(`${basename(path)}: ${result.frames} frames ${result.width}×${result.height}, ${input.length} → ${result.bytes.length} bytes (×${ratio.toFixed(3)}), ${(ms / 1000).toFixed(2)} s`);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
}
