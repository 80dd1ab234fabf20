// What the front end and the Go server must agree on about the JSON API: its paths, the XSRF
// cookie and header names and the account's error codes. internal/site/api.json is the single
// source of truth; Go tests check the server's route table and error codes against it.
import api from '../../../internal/site/api.json';

/** The prefix of every endpoint ("/api/v1"). */
export const apiBase: string = api.base;

/** The name of an endpoint, as api.json's `paths` has it. */
export type ApiPath = keyof typeof api.paths;

/** An endpoint's path below apiBase ("auth/me"), for the HTTP client, which adds the base. */
export const apiPath = (name: ApiPath): string => api.paths[name];

/** An endpoint's absolute URL path ("/api/v1/auth/me"). */
export const apiUrl = (name: ApiPath): string => `${api.base}/${api.paths[name]}`;

/** The cookie the server issues, and the header an unsafe request repeats its value in. */
export const xsrfCookie: string = api.xsrf.cookie;
export const xsrfHeader: string = api.xsrf.header;

/** The codes the account's endpoints answer failures with; the forms turn them into words. */
export const accountErrorCodes: readonly string[] = api.accountErrors;

/** The name the page-view reports give the referrers and languages past a day's cap. */
export const statsOther: string = api.statsOther;
