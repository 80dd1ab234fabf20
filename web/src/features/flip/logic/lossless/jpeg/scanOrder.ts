// The order in which a scan codes its blocks: interleaved MCU by MCU, or one component alone.
import type { Component } from './coefficients';
import type { Frame } from './frame';

export interface ScanBlocks {
  /** By block in coding order: its component (index in the scan), and its block index. */
  owner: Uint8Array;
  at: Int32Array;
  /** 1 for a block holding image data, 0 for the padding of the last MCU column or row. */
  real: Uint8Array;
  perMcu: number;
}

export function scanBlocks(frame: Frame, comps: Component[]): ScanBlocks {
  if (comps.length === 1) {
    // One component: its blocks in raster order, only those holding data.
    const c = comps[0];
    const at = new Int32Array(c.blocksWide * c.blocksHigh);
    for (let y = 0, i = 0; y < c.blocksHigh; y++) for (let x = 0; x < c.blocksWide; x++) at[i++] = y * c.stride + x;
    return { owner: new Uint8Array(at.length), at, real: new Uint8Array(at.length).fill(1), perMcu: 1 };
  }
  const perMcu = comps.reduce((n, c) => n + c.h * c.v, 0);
  const owner = new Uint8Array(frame.mcusWide * frame.mcusHigh * perMcu);
  const at = new Int32Array(owner.length);
  const real = new Uint8Array(owner.length);
  let i = 0;
  for (let my = 0; my < frame.mcusHigh; my++) {
    for (let mx = 0; mx < frame.mcusWide; mx++) {
      comps.forEach((c, ci) => {
        for (let by = 0; by < c.v; by++) {
          for (let bx = 0; bx < c.h; bx++, i++) {
            const x = mx * c.h + bx;
            const y = my * c.v + by;
            owner[i] = ci;
            at[i] = y * c.stride + x;
            real[i] = Number(x < c.blocksWide && y < c.blocksHigh);
          }
        }
      });
    }
  }
  return { owner, at, real, perMcu };
}
