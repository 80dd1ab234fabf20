// One scan of a JPEG: its header read and checked, its entropy-coded data unstuffed
// (entropyCoded.ts), its blocks put in coding order (scanOrder.ts), then decoded into the
// frame's coefficients. A sequential scan (every baseline JPEG, most photos) goes straight into
// the compact form (sequential.ts), as fast as this gets in JavaScript; a progressive scan
// refines full 64-coefficient blocks (progressive.ts), and the frame is made compact once all
// its scans are in (decode.ts). Restart markers are honoured in both.
import { unstuff } from './entropyCoded';
import type { Frame } from './frame';
import type { DecodeTable } from './huffman';
import { decodeProgressive, type ScanComponent } from './progressive';
import { scanBlocks } from './scanOrder';
import { decodeSequential } from './sequential';
import { damaged, missingTable } from './unsupported';

/** Decodes one scan into the frame's coefficients; returns where its data ends. */
export function readScan(
  b: Uint8Array,
  at: number,
  seg: Uint8Array,
  frame: Frame,
  dcTables: (DecodeTable | undefined)[],
  acTables: (DecodeTable | undefined)[],
  restartInterval: number,
): number {
  const n = seg[0];
  if (n < 1 || n > 4 || seg.length < 4 + 2 * n) throw damaged('bad scan header');
  const scanComps: ScanComponent[] = Array.from({ length: n }, (_, i) => {
    const c = frame.components.find((c) => c.id === seg[1 + 2 * i]);
    if (!c) throw damaged('scan of an unknown component');
    return { c, dc: dcTables[seg[2 + 2 * i] >> 4], ac: acTables[seg[2 + 2 * i] & 15], pred: 0 };
  });
  const ss = seg[1 + 2 * n];
  const se = seg[2 + 2 * n];
  const ah = seg[3 + 2 * n] >> 4;
  const al = seg[3 + 2 * n] & 15;
  if (!frame.progressive && (ss !== 0 || se !== 63 || ah !== 0 || al !== 0)) throw damaged('progressive parameters in a sequential scan');
  if (ss > se || se > 63 || (ss === 0 && se !== 0 && frame.progressive) || al > 13) throw damaged('bad spectral selection');
  if (ss > 0 && n !== 1) throw damaged('an AC scan of several components');

  const { data, intervals, end } = unstuff(b, at);
  const order = scanBlocks(frame, scanComps.map((s) => s.c));
  if (!frame.progressive) {
    const tables = scanComps.map((s) => ({ dc: s.dc ?? missingTable(), ac: s.ac ?? missingTable() }));
    decodeSequential(data, intervals, order, restartInterval * order.perMcu, scanComps.map((s) => s.c), tables, frame);
    return end;
  }
  decodeProgressive(data, intervals, order, restartInterval, scanComps, { ss, se, ah, al });
  return end;
}
