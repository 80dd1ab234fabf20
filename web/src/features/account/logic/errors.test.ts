import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../i18n/translator';
import accountDe from '../locales/de.json';
import accountEn from '../locales/en.json';
import { checkCredentials, errorText, fieldError, knownKeys, retryTime } from './errors';

describe('form errors', () => {
  it('have words for every code of the API (internal/site/api.json) but those read as other', () => {
    for (const key of knownKeys) expect(Object.keys(accountEn.errors), key).toContain(key);
  });


  it('go next to the field they concern, or above the buttons', () => {
    expect(fieldError({ code: 'invalid-email', status: 400 })).toEqual({ field: 'email', key: 'invalid-email' });
    expect(fieldError({ code: 'email-taken', status: 409 }).field).toBe('email');
    expect(fieldError({ code: 'invalid-password', status: 400 }).field).toBe('password');
    expect(fieldError({ code: 'wrong-password', status: 403 }).field).toBe('password');
    expect(fieldError({ code: 'invalid-display-name', status: 400 }).field).toBe('displayName');
    // Never says which of the two was wrong.
    expect(fieldError({ code: 'wrong-credentials', status: 401 })).toEqual({ field: 'form', key: 'wrong-credentials' });
    expect(fieldError({ code: 'rate-limited', status: 429, retryAfter: 90 })).toEqual({ field: 'form', key: 'rate-limited', retryAfter: 90 });
    expect(fieldError({ code: 'network', status: 0 })).toEqual({ field: 'form', key: 'network' });
    expect(fieldError({ code: 'xsrf', status: 403 })).toEqual({ field: 'form', key: 'other' });
  });

  it('catch what is certainly wrong before sending', () => {
    expect(checkCredentials('signIn', 'ada@example.com', 'x')).toEqual([]); // a short password may be old: the server says
    expect(checkCredentials('signIn', ' ada@example.com ', '')).toEqual([{ field: 'password', key: 'password-missing' }]);
    expect(checkCredentials('signUp', 'ada', 'short')).toEqual([
      { field: 'email', key: 'invalid-email' },
      { field: 'password', key: 'invalid-password' },
    ]);
    expect(checkCredentials('signUp', 'ada@example.com', '🔑🔑🔑🔑🔑🔑🔑🔑')).toEqual([]); // eight characters, not sixteen code units
  });

  it('say when to retry, in the page language, rounded up to the minute', () => {
    const now = Date.UTC(2026, 0, 5, 14, 31, 30);
    const at = (lang: string) => new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(Date.UTC(2026, 0, 5, 14, 46));
    expect(retryTime(840, 'en', now)).toBe(at('en')); // 14:45:30 → 14:46
    expect(retryTime(840, 'de', now)).toBe(at('de'));

    const t = createTranslator('de');
    t.addBundle('de', 'account', accountDe);
    t.addBundle('en', 'account', accountEn);
    expect(errorText(t.fixedT('account'), { field: 'form', key: 'rate-limited', retryAfter: 840 }, 'de', now)).toBe(
      accountDe.errors['rate-limited'].replace('{{time}}', at('de')),
    );
    expect(errorText(t.fixedT('account'), { field: 'password', key: 'wrong-password' }, 'de')).toBe(accountDe.errors['wrong-password']);
  });

  it("quote site.json's limits, which the server enforces", () => {
    const t = createTranslator('en');
    t.addBundle('en', 'account', accountEn);
    const en = t.fixedT('account');
    expect(errorText(en, { field: 'password', key: 'invalid-password' }, 'en')).toBe('The password must be 8 to 1024 characters long.');
    expect(errorText(en, { field: 'displayName', key: 'invalid-display-name' }, 'en')).toBe(
      'The display name can have at most 100 characters, without control, invisible or text-direction characters.',
    );
    expect(checkCredentials('signUp', 'a@b.co', 'x'.repeat(1024))).toEqual([]);
    expect(checkCredentials('signUp', 'a@b.co', 'x'.repeat(1025))).toEqual([{ field: 'password', key: 'invalid-password' }]);
  });
});
