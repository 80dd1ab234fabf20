// A progressive scan (T.81 G.1.2): a DC or AC band of full 64-coefficient blocks, first pass or
// refinement, each scan adding to the blocks; decode.ts makes the frame compact once all are in.
import { ZIGZAG } from './coefficients';
import { BitReader } from './entropyCoded';
import type { FrameComponent } from './frame';
import type { DecodeTable } from './huffman';
import type { ScanBlocks } from './scanOrder';
import { damaged, missingTable } from './unsupported';

/** A component as one scan codes it: its tables and its DC prediction. */
export interface ScanComponent {
  c: FrameComponent;
  dc?: DecodeTable;
  ac?: DecodeTable;
  pred: number;
}

/** The scan's band and bit position: spectral selection ss–se, successive approximation ah, al. */
export interface Band {
  ss: number;
  se: number;
  ah: number;
  al: number;
}

/** Refines the blocks of one progressive scan from its unstuffed data. */
export function decodeProgressive(
  data: Uint8Array,
  intervals: number[],
  order: ScanBlocks,
  restartInterval: number,
  scanComps: ScanComponent[],
  { ss, se, ah, al }: Band,
): void {
  const r = new BitReader(data);
  let eobrun = 0;
  const p1 = 1 << al;
  const m1 = -1 << al;

  const decodeBlock = (s: ScanComponent, coefs: Int16Array, o: number) => {
    if (ss === 0) {
      if (ah === 0) {
        const t = r.symbol(s.dc ?? missingTable());
        s.pred += t === 0 ? 0 : r.receive(t);
        coefs[o] = s.pred * p1;
      } else if (r.bit()) coefs[o] |= p1;
    } else if (ah === 0) {
      if (eobrun > 0) {
        eobrun--;
        return;
      }
      const ac = s.ac ?? missingTable();
      for (let k = ss; k <= se; ) {
        const rs = r.symbol(ac);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0) {
          if (run < 15) {
            eobrun = (1 << run) - 1 + r.bits(run);
            break;
          }
          k += 16;
          continue;
        }
        k += run;
        if (k > 63) throw damaged('coefficients past the end of a block');
        coefs[o + ZIGZAG[k]] = r.receive(size) * p1;
        k++;
      }
    } else refineAc(coefs, o);
  };

  // Successive approximation of AC coefficients (T.81 G.1.2.3), as libjpeg's decode_mcu_AC_refine.
  const refineAc = (coefs: Int16Array, o: number) => {
    const ac = scanComps[0].ac ?? missingTable();
    const correct = (i: number) => {
      if (r.bit() && (coefs[i] & p1) === 0) coefs[i] += coefs[i] >= 0 ? p1 : m1;
    };
    let k = ss;
    if (eobrun === 0) {
      for (; k <= se; k++) {
        const rs = r.symbol(ac);
        let run = rs >> 4;
        const size = rs & 15;
        let value = 0;
        if (size !== 0) {
          if (size !== 1) throw damaged('bad refinement');
          value = r.bit() ? p1 : m1;
        } else if (run !== 15) {
          eobrun = (1 << run) + r.bits(run);
          break;
        }
        // Skip `run` zero coefficients, refining the non-zero ones on the way.
        while (k <= se) {
          const i = o + ZIGZAG[k];
          if (coefs[i] !== 0) correct(i);
          else if (--run < 0) break;
          k++;
        }
        if (value !== 0 && k <= se) coefs[o + ZIGZAG[k]] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const i = o + ZIGZAG[k];
        if (coefs[i] !== 0) correct(i);
      }
      eobrun--;
    }
  };

  let interval = 0;
  const restart = () => {
    r.seek(intervals[++interval] ?? data.length);
    eobrun = 0;
    for (const s of scanComps) s.pred = 0;
  };

  for (let i = 0; i < order.at.length; i++) {
    if (restartInterval && i > 0 && i % (restartInterval * order.perMcu) === 0) restart();
    const s = scanComps[order.owner[i]];
    decodeBlock(s, s.c.full!, order.at[i] * 64);
  }
}
