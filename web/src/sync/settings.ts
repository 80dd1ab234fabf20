import { SyncError } from './errors';

/** The data layer's settings (spec, section 5), validated by validateSettings. */
export interface Settings {
  /** Bytes of documents kept in IndexedDB; past it the least recently used without pending
   * writes go. At least 1048576, or CACHE_UNLIMITED. */
  cacheSizeBytes: number;
  /** The listen's long-poll timeout, 5 to 30 seconds. */
  longPollTimeoutSeconds: number;
}

export const CACHE_UNLIMITED = -1;
export const MIN_CACHE_BYTES = 1_048_576;
export const defaultSettings: Settings = { cacheSizeBytes: 40 * MIN_CACHE_BYTES, longPollTimeoutSeconds: 30 };

/** Fills the defaults and refuses out-of-range values with invalid-argument. */
export function validateSettings(s: Partial<Settings> = {}): Settings {
  const out = { ...defaultSettings, ...s };
  const size = out.cacheSizeBytes;
  if (size !== CACHE_UNLIMITED && !(Number.isFinite(size) && size >= MIN_CACHE_BYTES)) {
    throw new SyncError('invalid-argument', `cacheSizeBytes must be at least ${MIN_CACHE_BYTES}`);
  }
  const t = out.longPollTimeoutSeconds;
  if (!(Number.isFinite(t) && t >= 5 && t <= 30)) {
    throw new SyncError('invalid-argument', `longPollTimeoutSeconds must be between 5 and 30 seconds, not ${t}`);
  }
  return out;
}
