// What the page says after a file went to its lossless rewriter: a JPEG's trimmed edge, the
// frames of an animation kept, or why it was re-encoded instead, in the words of the flip
// namespace. Pure, so that each reason's message is tested.
import type { ImageFormat } from './logic/formats';
import type { LosslessOutcome } from './protocol';

export type NoticeKey =
  | 'lossless.trimmed'
  | 'lossless.frames'
  | 'lossless.framesReencoded'
  | 'lossless.fallback.edges'
  | 'lossless.fallback.unsupported'
  | 'lossless.fallback.format'
  | 'lossless.fallback.damaged'
  | 'lossless.fallback.tooLarge'
  | 'lossless.fallback.lossy';

export interface LosslessNotice {
  key: NoticeKey;
  values: { name: string; width: number; height: number; frames: number; format: string };
}

/** Whether the file came out lossless: rewritten, and none of its frames compressed again. */
export function isLossless(outcome: LosslessOutcome | undefined): boolean {
  return outcome?.done === true && outcome.reencodedFrames === 0;
}

/** The notice for a lossless outcome, or undefined when there is nothing more to say than "lossless". */
export function losslessNotice(outcome: LosslessOutcome, format: ImageFormat, file: { name: string; width: number; height: number }): LosslessNotice | undefined {
  const values = { ...file, frames: outcome.done ? outcome.frames : 0, format: format.toUpperCase() };
  if (outcome.done) {
    if (outcome.trimmed) return { key: 'lossless.trimmed', values };
    if (outcome.reencodedFrames > 0) return { key: 'lossless.framesReencoded', values };
    return outcome.frames > 1 ? { key: 'lossless.frames', values } : undefined;
  }
  // The unsupported kinds are JPEG's (arithmetic coding, 12-bit, CMYK): other formats' own gaps
  // have the general words.
  const reason = outcome.reason === 'unsupported' && format !== 'jpeg' ? 'format' : outcome.reason;
  return { key: `lossless.fallback.${reason}`, values };
}
