// Lossless JPEG flips and quarter turns, as jpegtran does them: the coefficients are read,
// rearranged and written again, never decoded to pixels, so nothing of the photo's quality is
// lost. The EXIF orientation is folded into the transform and reset to 1, like the normal path.
// What cannot be done exactly comes back as a reason, for the caller to re-encode instead.
import { hasAscii } from '../../../../../lib/image/bytes';
import { jpegOrientation } from '../../../../../lib/image/exif';
import { jpegHead } from '../../../../../lib/image/jpeg';
import { compose, fromExifOrientation, swapsAxes, type Transform } from '../../../../../lib/image/transform';
import { readCoefficients, UnsupportedJpeg, type Unsupported } from './decode';
import { writeJpeg } from './encode';
import { keptSize, plan } from './rearrange';

/**
 * trim: drop the partial MCUs a flip would move to the left or top edge (jpegtran -trim);
 * perfect: refuse then, so that the caller re-encodes the whole image.
 */
export type Edges = 'trim' | 'perfect';

export type LosslessResult =
  | { ok: true; bytes: Uint8Array; width: number; height: number; trimmed: boolean }
  | { ok: false; reason: Unsupported | 'edges' | 'tooSmall'; detail: string };

const ICC_PROFILE = 'ICC_PROFILE\0';

/**
 * `transform` applies to the upright image (after its EXIF orientation). The result has the
 * input's colour profile (ICC) and no other metadata: the caller adds the EXIF it keeps.
 */
export function flipJpegLossless(bytes: Uint8Array, transform: Transform, edges: Edges): LosslessResult {
  try {
    const whole = compose(fromExifOrientation(jpegOrientation(bytes)), transform);
    const input = readCoefficients(bytes, { transposed: swapsAxes(whole) });
    const kept = keptSize(input, whole);
    const trimmed = kept.width !== input.width || kept.height !== input.height;
    if (kept.width === 0 || kept.height === 0) return { ok: false, reason: 'tooSmall', detail: `${input.width}×${input.height} is smaller than one MCU` };
    if (trimmed && edges === 'perfect') return { ok: false, reason: 'edges', detail: `${input.width}×${input.height} is not whole MCUs` };
    const output = plan(input, whole);
    // The colour profile is part of how the pixels look, not information about the photo.
    const head = jpegHead(bytes);
    const icc = (head?.segments ?? []).filter((s) => s.marker === 0xe2 && hasAscii(bytes, s.payload, ICC_PROFILE)).map((s) => bytes.subarray(s.start, s.end));
    return { ok: true, bytes: writeJpeg(output, icc, bytes.length), width: output.width, height: output.height, trimmed };
  } catch (err) {
    if (err instanceof UnsupportedJpeg) return { ok: false, reason: err.reason, detail: err.message };
    return { ok: false, reason: 'damaged', detail: String(err) };
  }
}
