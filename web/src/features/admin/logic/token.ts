// Where the dashboard keeps the operator's token: sessionStorage, so that it lasts as long as
// the tab (reloads and range changes included) and is gone when the tab closes. It is never in
// the address, a cookie or localStorage.

export const tokenKey = 'handy-admin-token';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function session(): Store | undefined {
  try {
    return sessionStorage;
  } catch {
    return undefined; // storage refused: the token lasts as long as the page
  }
}

export function storedToken(store = session()): string | null {
  try {
    return store?.getItem(tokenKey) ?? null;
  } catch {
    return null;
  }
}

export function storeToken(token: string | null, store = session()): void {
  try {
    if (token === null) store?.removeItem(tokenKey);
    else store?.setItem(tokenKey, token);
  } catch {
    // A full or refused storage only means asking again after a reload.
  }
}
