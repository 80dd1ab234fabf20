// The account endpoints of the server (internal/server/api_auth.go), typed. Two clients carry
// the calls: the page's shared one, whose failures are toasts (loading the session, export,
// sign-out), and one for the forms, which says nothing itself: a form shows what went wrong
// next to its fields (a wrong password is not "your session has expired").
import { apiPath } from '../../lib/api';
import { HttpError, xsrfCookie, type HttpClient } from '../../ui/http';
import type { Storage } from './logic/storage';
import type { AccountUser } from './session';

/** users/{uid} as the server returns it. */
export interface Profile {
  email: string;
  displayName: string;
  avatar: string | null;
  locale: string;
  preferences: unknown;
  createdAt: string;
  lastSignInAt: string;
}

export interface User {
  id: string;
  email: string;
  createdAt: string;
  lastSignInAt: string;
}

export interface Me {
  user: User;
  profile: Profile;
  /** GET /auth/me only: the storage used and the quota. */
  storage?: Storage;
}

export interface SignedIn extends Me {
  token: string;
}

export interface Credentials {
  email: string;
  password: string;
  locale?: string;
  /** Sign-up only. */
  displayName?: string;
}

export interface ProfilePatch {
  displayName?: string;
  /** A data:image/jpeg URL, or '' to remove it. */
  avatar?: string;
  locale?: string;
  preferences?: object;
}

export type AccountApi = ReturnType<typeof createAccountApi>;

export interface ApiDeps {
  /** The page's client: failures are toasts, a 401 signs out. */
  http: HttpClient;
  /** The forms' client: failures are left to the caller. */
  forms: HttpClient;
  /** A cookie's value, or undefined. */
  cookie: (name: string) => string | undefined;
}

export function createAccountApi({ http, forms, cookie }: ApiDeps) {
  // The server issues the XSRF cookie on any API call; a visitor whose first call changes
  // something asks for it first, without the overlay.
  const xsrf = async () => {
    if (!cookie(xsrfCookie)) await http.get(apiPath('authXsrf'), { noLoad: true });
  };
  return {
    /** The session of the stored token, in the background. */
    me: () => http.get<Me>(apiPath('authMe'), { noLoad: true }),
    async signIn({ email, password, locale }: Credentials) {
      await xsrf();
      return forms.post<SignedIn>(apiPath('authSignin'), { email, password, locale });
    },
    async signUp(c: Credentials) {
      await xsrf();
      return forms.post<SignedIn>(apiPath('authSignup'), c.displayName ? c : { email: c.email, password: c.password, locale: c.locale });
    },
    async signOut() {
      await xsrf();
      await http.post(apiPath('authSignout'), undefined, { noLoad: true });
    },
    async update(patch: ProfilePatch) {
      await xsrf();
      return forms.patch<Me>(apiPath('authMe'), patch);
    },
    async remove(password: string) {
      await xsrf();
      await forms.request('DELETE', apiPath('authMe'), { password });
    },
    async changePassword(currentPassword: string, newPassword: string) {
      await xsrf();
      await forms.post(apiPath('authPassword'), { currentPassword, newPassword });
    },
    async signOutEverywhere() {
      await xsrf();
      await http.post(apiPath('authSignoutEverywhere'), undefined);
    },
    exportData: () => http.get<unknown>(apiPath('authExport')),
  };
}

/** What the header and the dialog keep of an answer. */
export function accountUser({ user, profile }: Me): AccountUser {
  return {
    id: user.id,
    email: user.email,
    displayName: typeof profile.displayName === 'string' ? profile.displayName : '',
    avatar: typeof profile.avatar === 'string' && profile.avatar ? profile.avatar : null,
  };
}

/** A failed call as the forms need it: the API's code, the status, and when to retry. */
export interface Failure {
  /** The API's error code; 'network' when no answer came, 'other' when the answer had none. */
  code: string;
  status: number;
  /** Seconds, from Retry-After (rate-limited). */
  retryAfter?: number;
}

/** Reads a failed call; `retryAfterOf` gives the Retry-After header of the answer from a URL. */
export function failureOf(err: unknown, retryAfterOf: (url: string) => string | null | undefined = () => undefined): Failure {
  if (!(err instanceof HttpError)) return { code: 'other', status: 0 };
  if (err.status === 0) return { code: 'network', status: 0 };
  const body = err.body as { error?: { code?: unknown } } | undefined;
  const code = typeof body?.error?.code === 'string' ? body.error.code : 'other';
  const failure: Failure = { code, status: err.status };
  const seconds = Number(retryAfterOf(err.url));
  if (err.status === 429 && Number.isFinite(seconds) && seconds > 0) failure.retryAfter = seconds;
  return failure;
}
