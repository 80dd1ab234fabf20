// The visitor's answer to the consent banner, as kept in localStorage under `consent`, and what
// it means on each page load: ask, load the tag manager, or load nothing.

/** The localStorage key (named in the privacy policy). */
export const consentKey = 'consent';
/** Raised when what the banner asks changes: every older answer is asked again. */
export const consentVersion = 1;
/** An answer is asked again after six months. */
export const maxAgeDays = 183;
const day = 24 * 60 * 60 * 1000;

export type Choice = 'accepted' | 'rejected';

/** What is stored: `{"choice":"accepted","date":"2026-11-23T10:00:00.000Z","version":1}`. */
export interface ConsentRecord {
  choice: Choice;
  /** When the visitor answered, ISO 8601. */
  date: string;
  version: number;
}

/** An answer given at `now`, as it is stored (JSON). */
export const newRecord = (choice: Choice, now: Date): ConsentRecord => ({ choice, date: now.toISOString(), version: consentVersion });

/**
 * The answer that still holds at `now`, from the stored text: undefined (ask again) for none,
 * for what does not parse or has another shape or version, and for an answer older than
 * six months or dated more than a day ahead (a clock set wrong once must not make it last for ever).
 */
export function currentRecord(text: string | null | undefined, now: Date): ConsentRecord | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { choice, date, version } = value as Record<string, unknown>;
  if ((choice !== 'accepted' && choice !== 'rejected') || version !== consentVersion || typeof date !== 'string') return undefined;
  const at = Date.parse(date);
  if (Number.isNaN(at)) return undefined;
  const age = now.getTime() - at;
  if (age >= maxAgeDays * day || age < -day) return undefined;
  return { choice, date, version };
}

/** What a page load does: show the banner, load the tag manager, or nothing at all. */
export type Start = 'ask' | 'load' | 'none';

/**
 * An acceptance loads the tag manager, a rejection nothing. Without an answer the banner asks,
 * unless the browser sends Global Privacy Control: that counts as a standing rejection, so the
 * banner stays away; the visitor may still accept from "Cookie settings", an explicit choice.
 */
export function startOf(record: ConsentRecord | undefined, globalPrivacyControl: boolean): Start {
  if (record) return record.choice === 'accepted' ? 'load' : 'none';
  return globalPrivacyControl ? 'none' : 'ask';
}
