// Flips and quarter turns on DCT coefficients, as jpegtran does them. Mirroring an 8×8 block
// left to right negates its odd-numbered columns of coefficients (the odd cosines are
// antisymmetric), top to bottom its odd rows, and a transpose transposes them; the blocks
// themselves move as the pixels would. Every step is an exact integer operation.
//
// An image whose size is not a whole number of MCUs has partial blocks on its right and
// bottom edges. They cannot move to the left or top edge (JPEG always pads right and bottom),
// so, as `jpegtran -trim` does, the transform drops the partial MCU column or row that would.
import { inverse, mapPoint, outputSize, type Transform } from '../../../../../lib/image/transform';
import { componentBlocks, countAcSymbols, maxSampling, ZIGZAG, type Coefficients, type Component } from './coefficients';

/** How a transform moves the axes: whether it transposes, and which output axes it reverses. */
function axes(t: Transform) {
  const o = mapPoint(t, 2, 2, 0, 0);
  const ex = mapPoint(t, 2, 2, 1, 0);
  const ey = mapPoint(t, 2, 2, 0, 1);
  const transposed = ex.x === o.x;
  return {
    transposed,
    reverseX: (transposed ? ey.x - o.x : ex.x - o.x) < 0,
    reverseY: (transposed ? ex.y - o.y : ey.y - o.y) < 0,
  };
}

/** The part of the input the lossless transform keeps: all of it, or less its partial right or bottom MCUs. */
export function keptSize(c: Pick<Coefficients, 'width' | 'height' | 'components'>, t: Transform): { width: number; height: number } {
  const { transposed, reverseX, reverseY } = axes(t);
  const max = maxSampling(c.components);
  // The input's right edge ends up on the output's left (or top, when transposed).
  const trimRight = transposed ? reverseY : reverseX;
  const trimBottom = transposed ? reverseX : reverseY;
  const unitX = 8 * max.h;
  const unitY = 8 * max.v;
  return {
    width: trimRight ? Math.floor(c.width / unitX) * unitX : c.width,
    height: trimBottom ? Math.floor(c.height / unitY) * unitY : c.height,
  };
}

export interface PlannedComponent extends Pick<Component, 'id' | 'tq' | 'dc' | 'acStart' | 'acCount'> {
  /** The output's sampling factors and blocks holding data (dc, acStart, acCount are the input's). */
  readonly h: number;
  readonly v: number;
  readonly blocksWide: number;
  readonly blocksHigh: number;
  /** Output block (x, y) is input block origin + x·stepX + y·stepY. */
  readonly origin: number;
  readonly stepX: number;
  readonly stepY: number;
  /** How often each AC symbol occurs in its output blocks (see Component.acSymbols). */
  readonly acSymbols: Uint32Array;
}

/**
 * The transformed image, described rather than built: the encoder reads each output block
 * straight from its input block, so no second copy of the AC coefficients is ever made.
 */
export interface Plan extends Pick<Coefficients, 'width' | 'height' | 'quant' | 'jfif' | 'ac'> {
  readonly components: readonly PlannedComponent[];
  /** By zigzag position in an output block: -1 where the coefficient changes sign, else 1. */
  readonly sign: Int8Array;
}

/**
 * The transformed image, less the edge keptSize drops. A transform that swaps the axes needs
 * the coefficients read transposed (readCoefficients), any other needs them as they are.
 */
export function plan(c: Coefficients, t: Transform): Plan {
  const { transposed, reverseX, reverseY } = axes(t);
  if (c.transposed !== transposed) throw new Error(`coefficients read ${c.transposed ? '' : 'un'}transposed for a transform that needs the opposite`);
  const kept = keptSize(c, t);
  const size = outputSize(t, kept.width, kept.height);

  // Output natural position (row, col) comes from (col, row) when transposed, and changes sign
  // on odd columns when mirrored left to right, on odd rows when mirrored top to bottom.
  const from = (n: number) => (transposed ? (n & 7) * 8 + (n >> 3) : n);
  const sign = Int8Array.from(ZIGZAG, (n) => ((reverseX && (n & 1) === 1) !== (reverseY && ((n >> 3) & 1) === 1) ? -1 : 1));

  const back = inverse(t);
  const inMax = maxSampling(c.components);
  const components = c.components.map((comp): PlannedComponent => {
    const { blocksWide, blocksHigh } = componentBlocks(kept.width, kept.height, comp, inMax);
    const out = outputSize(t, blocksWide, blocksHigh);
    // The input block index is affine in the output block's (x, y).
    const index = (p: { x: number; y: number }) => p.y * comp.stride + p.x;
    const origin = index(mapPoint(back, out.width, out.height, 0, 0));
    // The decoder's counts less the trimmed edge's.
    const acSymbols = comp.acSymbols.slice();
    for (let y = 0; y < comp.blocksHigh; y++) {
      for (let x = y >= blocksHigh ? 0 : blocksWide; x < comp.blocksWide; x++) {
        const block = y * comp.stride + x;
        countAcSymbols(c.ac, comp.acStart[block], comp.acCount[block], acSymbols, -1);
      }
    }
    return {
      id: comp.id,
      tq: comp.tq,
      dc: comp.dc,
      acStart: comp.acStart,
      acCount: comp.acCount,
      h: transposed ? comp.v : comp.h,
      v: transposed ? comp.h : comp.v,
      blocksWide: out.width,
      blocksHigh: out.height,
      origin,
      stepX: index(mapPoint(back, out.width, out.height, 1, 0)) - origin,
      stepY: index(mapPoint(back, out.width, out.height, 0, 1)) - origin,
      acSymbols,
    };
  });

  // A transposed image needs transposed quantisation tables, entry for entry with its coefficients.
  const quant = transposed ? c.quant.map((q) => q && Uint16Array.from({ length: 64 }, (_, n) => q[from(n)])) : c.quant;
  return { width: size.width, height: size.height, components, ac: c.ac, quant, jfif: c.jfif, sign };
}
