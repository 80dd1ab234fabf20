// The operator's report as GET /api/v1/stats answers it (docs/api.md, "Stats";
// internal/analytics/report.go), and the one call that reads it. The token goes in the
// Authorization header of each call; the endpoint is cookieless.
import { apiUrl } from '../../../lib/api';
import type { Range } from './range';

export interface DayCount {
  day: string;
  views: number;
  visitors: number;
  bots: number;
}

export interface Count {
  name: string;
  views: number;
}

export interface Report {
  from: string;
  to: string;
  days: DayCount[];
  totals: { views: number; visitors: number; bots: number; botShare: number };
  pages: { path: string; page: string; locale: string; views: number }[];
  locales: Count[];
  languages: Count[];
  referrers: Count[];
  screens: Count[];
  realtime: { minutes: number; visitors: number };
}

export const statsUrl = apiUrl('stats');

/** What a call came to: the report, or why there is none. */
export type Outcome =
  | { kind: 'report'; report: Report }
  /** The server refused the token (401), or has none configured (404). */
  | { kind: 'refused'; status: 401 | 404 }
  /** No answer, or one the dashboard cannot use: worth a retry. */
  | { kind: 'failed'; status: number };

const query = (r: Range, format?: 'csv') =>
  `${statsUrl}?${new URLSearchParams({ from: r.from, to: r.to, ...(format ? { format } : {}) }).toString()}`;

const auth = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** Reads the report of a range. Never throws: a failure is an outcome. */
export async function fetchReport(fetcher: typeof fetch, token: string, range: Range, signal?: AbortSignal): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetcher(query(range), { ...auth(token), signal, cache: 'no-store' });
  } catch (err) {
    if (signal?.aborted) throw err; // the caller moved on: nobody is waiting for this outcome
    return { kind: 'failed', status: 0 };
  }
  if (res.status === 401 || res.status === 404) return { kind: 'refused', status: res.status };
  if (!res.ok) return { kind: 'failed', status: res.status };
  try {
    const report = (await res.json()) as Report;
    if (!Array.isArray(report.days) || typeof report.totals !== 'object') return { kind: 'failed', status: res.status };
    return { kind: 'report', report };
  } catch {
    return { kind: 'failed', status: res.status };
  }
}

/** Reads the daily series as CSV, for the download button; null on any failure. */
export async function fetchCsv(fetcher: typeof fetch, token: string, range: Range): Promise<Blob | null> {
  try {
    const res = await fetcher(query(range, 'csv'), { ...auth(token), cache: 'no-store' });
    return res.ok ? await res.blob() : null;
  } catch {
    return null;
  }
}

/** The file name the server gives the CSV (Content-Disposition), for the download link. */
export const csvName = (r: Range) => `handy-stats-${r.from}-to-${r.to}.csv`;
