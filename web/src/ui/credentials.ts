// What a call to our API carries: the stored sign-in token and the XSRF cookie's value. Small
// and free of the HTTP client, so that the page bundle (the header asks whether a token is
// stored) and the history's sync reach them without loading the client.

/** The localStorage key of the sign-in token (named in the privacy policy). */
export const tokenKey = 'token';
export { xsrfCookie, xsrfHeader } from '../lib/api';

/** The stored sign-in token; undefined when there is none or storage is unavailable. */
export function storedToken(storage: () => Pick<Storage, 'getItem'> | undefined = () => globalThis.localStorage): string | undefined {
  try {
    return storage()?.getItem(tokenKey) || undefined;
  } catch {
    return undefined;
  }
}

/** Reads one cookie from `document.cookie`; undefined without a document (prerendering). */
export function readCookie(name: string, source = typeof document === 'undefined' ? '' : document.cookie): string | undefined {
  for (const part of source.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}
