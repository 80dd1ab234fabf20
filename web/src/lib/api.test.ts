import { describe, expect, it } from 'vitest';
import { accountErrorCodes, apiBase, apiPath, apiUrl, statsOther, xsrfCookie, xsrfHeader } from './api';

describe('api.json', () => {
  it('builds the endpoints the Go route table serves', () => {
    expect(apiBase).toBe('/api/v1');
    expect(apiPath('authMe')).toBe('auth/me');
    expect(apiUrl('authExport')).toBe('/api/v1/auth/me/export');
    expect(apiUrl('dbCommit')).toBe('/api/v1/db/commit');
    expect(apiUrl('pageviews')).toBe('/api/v1/pageviews');
    expect(apiUrl('stats')).toBe('/api/v1/stats');
  });

  it('names the XSRF cookie and header, and the account error codes', () => {
    expect([xsrfCookie, xsrfHeader]).toEqual(['XSRF-TOKEN', 'X-XSRF-TOKEN']);
    expect(accountErrorCodes).toContain('email-taken');
  });

  it("names the reports' overflow row as the analytics count it", () => {
    expect(statsOther).toBe('(other)');
  });
});
