// Who is signed in, as the header shows it. This module is in every page's bundle, so it stays
// tiny: the account chunk (loaded on demand) does the talking to the server and fills it in.
import { createStore, useStore } from '../../lib/store';
import { storedToken, tokenKey } from '../../ui/credentials';

/** What the header and the dialog show of a signed-in visitor. */
export interface AccountUser {
  id: string;
  email: string;
  displayName: string;
  /** A data:image/jpeg URL, or null. */
  avatar: string | null;
}

export type Session =
  | { status: 'signed-out' }
  /** A token is stored and the server has not answered yet (or could not be reached). */
  | { status: 'checking' }
  | { status: 'signed-in'; user: AccountUser };

export const signedOut: Session = { status: 'signed-out' };

export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore(initial: Session = signedOut) {
  // themeRevision is bumped when the account applies a theme, so that the header's theme
  // switch re-reads it.
  const store = createStore({ session: initial, themeRevision: 0 });
  return {
    get: (): Session => store.get().session,
    set(session: Session) {
      store.set((s) => ({ ...s, session }));
      markAccount(session);
    },
    themeRevision: () => store.get().themeRevision,
    themeApplied: () => store.set((s) => ({ ...s, themeRevision: s.themeRevision + 1 })),
    subscribe: store.subscribe,
    /** The store itself, for useStore. */
    store,
  };
}

/** The page's one session. */
export const session = createSessionStore();

/** The session; signed out while prerendering and hydrating (the server knows no token). */
export function useSession(store: SessionStore = session): Session {
  return useStore(store.store, (s) => s.session, () => signedOut);
}

export function useThemeRevision(store: SessionStore = session): number {
  return useStore(store.store, (s) => s.themeRevision, () => 0);
}

/**
 * The inline script before the first paint that marks a page whose visitor has a stored token
 * (`data-account` on <html>): the header's button keeps a signed-in name's width from the start,
 * and shows no label until the name is known (account.css), so that nothing moves as it comes.
 */
export const signedInScript = `try{localStorage.getItem(${JSON.stringify(tokenKey)})&&document.documentElement.setAttribute("data-account","")}catch(e){}`;

/** Keeps <html data-account> (signedInScript) true to the session once it is known: a signed-out
 * visitor's button shows "Sign in" again at its own width. */
function markAccount(session: Session) {
  if (typeof document === 'undefined' || session.status === 'checking') return;
  document.documentElement.toggleAttribute('data-account', session.status === 'signed-in');
}

/** Whether a sign-in token is stored; false when storage is unavailable. */
export const hasStoredToken = (storage?: () => Pick<Storage, 'getItem'> | undefined): boolean => storedToken(storage) !== undefined;

/** The name to show: the display name, else the email address. */
export function shownName(user: AccountUser): string {
  return user.displayName.trim() || user.email;
}

/** The first letter of the shown name, for a circle when there is no avatar. */
export function initialOf(user: AccountUser): string {
  const first = [...shownName(user)][0] ?? '?';
  return first.toLocaleUpperCase();
}
