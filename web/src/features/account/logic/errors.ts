// What the forms say when something fails: the API's error codes become translated messages
// next to the field they concern (account:errors.*), and a few mistakes are caught before
// anything is sent.
import type accountMessages from '../locales/en.json';
import type { TFunction } from '../../../i18n/translator';
import { accountErrorCodes } from '../../../lib/api';
import { limits } from '../../../lib/site';
import type { Failure } from '../api';

export type ErrorKey = keyof typeof accountMessages.errors;
/** Where a message is shown: next to a field, or above the form's buttons. */
export type Field = 'email' | 'password' | 'displayName' | 'form';

export interface FieldError {
  field: Field;
  key: ErrorKey;
  /** Rate-limited: seconds to wait. */
  retryAfter?: number;
}

const fieldOf: Readonly<Partial<Record<ErrorKey, Field>>> = {
  'invalid-email': 'email',
  'email-taken': 'email',
  'invalid-password': 'password',
  'wrong-password': 'password',
  'password-missing': 'password',
  'invalid-display-name': 'displayName',
};

/**
 * The API's account codes (internal/site/api.json) that the forms word themselves; the others
 * read as `other` (an ended session is the HTTP client's to handle).
 */
export const unworded: readonly string[] = ['unauthenticated', 'unavailable'];

/** Every key with words: the API's worded codes and the forms' own. */
export const knownKeys: readonly string[] = [
  ...accountErrorCodes.filter((code) => !unworded.includes(code)),
  'password-missing',
  'network',
  'other',
];

const isKey = (code: string): code is ErrorKey => knownKeys.includes(code);

/** The message of a failed call and where it goes. */
export function fieldError(failure: Failure): FieldError {
  const key: ErrorKey = isKey(failure.code) ? failure.code : 'other';
  return { field: fieldOf[key] ?? 'form', key, retryAfter: failure.retryAfter };
}

/** Mistakes worth catching before a round trip; the server checks everything again. */
export function checkCredentials(mode: 'signIn' | 'signUp', email: string, password: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) errors.push({ field: 'email', key: 'invalid-email' });
  const length = [...password].length;
  if (mode === 'signUp' && (length < limits.passwordMinLength || length > limits.passwordMaxLength)) {
    errors.push({ field: 'password', key: 'invalid-password' });
  }
  if (mode === 'signIn' && length === 0) errors.push({ field: 'password', key: 'password-missing' });
  return errors;
}

/** The time of day after which to retry, rounded up to the minute, in the page's language. */
export function retryTime(seconds: number, lang: string, now = Date.now()): string {
  const minute = 60_000;
  const at = Math.ceil((now + seconds * 1000) / minute) * minute;
  return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(at);
}

/** The limits the messages quote, from site.json (the server's too). */
export const passwordLengths = { min: limits.passwordMinLength, max: limits.passwordMaxLength };
export const displayNameLength = { max: limits.displayNameMaxLength };

export function errorText(t: TFunction<'account'>, error: FieldError, lang: string, now = Date.now()): string {
  switch (error.key) {
    case 'rate-limited':
      return t('errors.rate-limited', { time: retryTime(error.retryAfter ?? 60, lang, now) });
    case 'invalid-password':
      return t('errors.invalid-password', passwordLengths);
    case 'invalid-display-name':
      return t('errors.invalid-display-name', displayNameLength);
    default:
      return t(`errors.${error.key}`);
  }
}
