// One measurement, not a test: how long flipping lossless WebP files takes in Node and how
// their size compares with libwebp's (cwebp -lossless, img2webp, gif2webp). Run:
//   WEBP_MEASURE='a.webp b.webp' npx vitest bench --run --config web/vite.config.ts web/test/features/flip/logic/lossless/webp/flip.bench.ts
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { bench } from 'vitest';
import { parseTransformKey } from '../../../../../../src/lib/image/transform';
import { flipWebp } from '../../../../../../src/features/flip/logic/lossless/webp/index';
import { readWebp } from '../../../../../../src/features/flip/logic/lossless/webp/riff';
import { stillFile } from '../../../../../../src/features/flip/logic/lossless/webp/write';
import { libwebpCodec } from './libwebp';

const files = (process.env.WEBP_MEASURE ?? '').split(/\s+/).filter(Boolean);
for (const path of files) {
  bench(
    basename(path),
    async () => {
      const input = new Uint8Array(readFileSync(path));
      const started = performance.now();
      const cpu = process.cpuUsage();
      const result = await flipWebp(input, parseTransformKey('r0m')!, { codec: libwebpCodec });
      const ms = performance.now() - started;
      const cpuMs = process.cpuUsage(cpu).user / 1000;
      if (!result.ok) throw new Error(result.detail);
      // For scale: libwebp's decode of every frame alone, which the flip includes.
      const decodeStarted = performance.now();
      for (const f of readWebp(input).frames) await libwebpCodec.decode(stillFile(f.image, f.width, f.height, f.alph));
      const decodeMs = performance.now() - decodeStarted;
      const ratio = result.bytes.length / input.length;
      console.log(`${basename(path)}: ${result.frames} frames ${result.width}×${result.height}, ${input.length} → ${result.bytes.length} bytes (×${ratio.toFixed(3)}), ${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s; decoding alone ${(decodeMs / 1000).toFixed(2)} s)`);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
}
