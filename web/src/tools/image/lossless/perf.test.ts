// @vitest-environment node
import { it } from 'vitest';
import { parseTransformKey } from '../transform';
import { flipJpegLossless } from './index';
import { readCoefficients } from './decode';
import { makeJpeg } from './testJpegs';
it('perf', () => {
  const jpeg = makeJpeg({ width: 6000, height: 4000, sampling: '4:2:0', quality: 92 });
  console.log('size', jpeg.length);
  for (let i = 0; i < 4; i++) {
    let t0 = performance.now();
    readCoefficients(jpeg);
    const d = performance.now() - t0;
    t0 = performance.now();
    const r = flipJpegLossless(jpeg, parseTransformKey('r0m')!, 'trim');
    console.log('decode', d.toFixed(0), 'all', (performance.now() - t0).toFixed(0), r.ok && r.bytes.length);
  }
}, 120000);
