// The data layer's errors: the document API's codes, and the messages the spec gives its
// failure paths (section 8), word for word, so that logs and tests can rely on them.

export type SyncCode =
  | 'unavailable'
  | 'aborted'
  | 'invalid-argument'
  | 'failed-precondition'
  | 'unimplemented'
  | 'cancelled'
  | 'permission-denied'
  | 'unauthenticated'
  | 'not-found'
  | 'resource-exhausted';

export class SyncError extends Error {
  override readonly name = 'SyncError';
  constructor(
    readonly code: SyncCode,
    message: string,
  ) {
    super(message);
  }
}

export const messages = {
  offlineRead: 'Failed to get documents from server. (However, these documents may exist in the local cache. Run again without setting source to "server" to retrieve the cached documents.)',
  terminated: 'The client has already been terminated.',
  shuttingDown: 'Firestore shutting down',
  persistWrite: 'Failed to persist write',
  otherTab: 'persistence already enabled in another tab',
  unavailable: 'persistence unavailable',
} as const;

/** Codes a resend cannot fix: the batch is rolled back. The others are retried. */
export function permanent(code: SyncCode): boolean {
  return code !== 'unavailable' && code !== 'resource-exhausted' && code !== 'aborted' && code !== 'cancelled';
}
