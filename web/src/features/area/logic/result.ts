// What a calculation gives back: a result with its formulas, or errors at fields. The codes
// are translation-key-like so that the page can show a message at the field in any language.

export type ErrorCode =
  | 'required'
  | 'notANumber'
  | 'mustBePositive'
  | 'mustBeInteger'
  | 'tooFewSides'
  | 'angleRange'
  | 'triangleInequality'
  | 'innerNotSmaller'
  | 'shorterThanHeight'
  | 'invalidVertex'
  | 'tooFewVertices'
  | 'selfIntersecting'
  | 'zeroArea'
  | 'outOfRange';

/** The pseudo-field of an error about the result itself: valid inputs whose area overflows. */
export const RESULT_FIELD = 'result';

export interface FieldError {
  /** A field id from the shape table, or RESULT_FIELD. */
  readonly field: string;
  readonly code: ErrorCode;
  /** For a vertex list: the 1-based line of the text the error is about. */
  readonly line?: number;
}

/** Formats a number for display, e.g. in the page's language; supplied by the caller. */
export type Formatter = (n: number) => string;

export interface AreaOk {
  readonly ok: true;
  /** In the square of the input length unit; never rounded. */
  readonly area: number;
  /** Absent where the inputs do not determine it (a triangle by base and height). */
  readonly perimeter?: number;
  readonly perimeterApproximate?: boolean;
  /** Standard notation, the same in every language: `A = π × r²`. */
  readonly formula: string;
  readonly perimeterFormula?: string;
  /** The formula with the values put in, each written by `fmt`. */
  readonly substituted: (fmt: Formatter) => string;
  readonly substitutedPerimeter?: (fmt: Formatter) => string;
}

export interface AreaError {
  readonly ok: false;
  readonly errors: readonly FieldError[];
}

export type AreaResult = AreaOk | AreaError;
