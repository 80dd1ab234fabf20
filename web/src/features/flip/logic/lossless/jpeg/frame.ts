// The frame being decoded: its size, components and MCU grid, and where its coefficients go.
import type { AcCoefficients, Component } from './coefficients';

export interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  components: FrameComponent[];
  mcusWide: number;
  mcusHigh: number;
  /** The non-zero AC coefficients as they are decoded (sequential scans) or gathered (progressive). */
  ac: { words: AcCoefficients; length: number };
  /** Keep the blocks transposed (Coefficients.transposed). */
  transposed: boolean;
}

export interface FrameComponent extends Component {
  /** Progressive only: all 64 coefficients of each block in natural order, refined scan by scan. */
  full?: Int16Array;
}
