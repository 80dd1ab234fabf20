// The account's actions: resuming a stored session, signing in, up and out, saving the profile
// and preferences, exporting and deleting. It keeps the token, the header's session and the
// pages' preferences in step; everything it touches comes in through `deps`, so it is tested
// without a browser.
import type { TFunction } from '../../i18n/translator';
import type { Preferences } from '../../lib/preferences';
import type { ThemeChoice } from '../../theme/theme';
import type { ToastType } from '../../ui/toasts';
import { accountUser, failureOf, type AccountApi, type Credentials, type Failure, type Me, type ProfilePatch } from './api';
import type { PrefsForm } from './logic/prefsForm';
import { preferencesOf, readPreferences, themeOf } from './logic/savedPreferences';
import { signedOut, type SessionStore } from './session';

export interface AccountDeps {
  api: AccountApi;
  session: SessionStore;
  /** The stored sign-in token (the HTTP client reads it from there). */
  tokens: { set(token: string): void; clear(): void };
  setPreferences: (p: Preferences) => void;
  applyTheme: (choice: ThemeChoice) => void;
  toast: (message: string, type: ToastType) => void;
  t: TFunction<'account'>;
  /** The page's language code, sent as the preferred one at sign-in. */
  locale: () => string;
  /** Retry-After of the forms' last answer from a URL. */
  retryAfterOf?: (url: string) => string | null | undefined;
  /** Saves a file on the visitor's device. */
  download: (name: string, text: string) => void;
}

/** The name the export is saved under (named in the privacy policy's sense: all of the account's data). */
export const exportFileName = 'handy-tools-account.json';

export type Account = ReturnType<typeof createAccount>;

export function createAccount(deps: AccountDeps) {
  const { api, session, tokens, t } = deps;

  /** Shows an answer's user in the header and hands their preferences to the pages. */
  const show = (me: Me) => {
    session.set({ status: 'signed-in', user: accountUser(me) });
    deps.setPreferences(readPreferences(me.profile.preferences));
  };

  const applyTheme = (choice: ThemeChoice) => {
    deps.applyTheme(choice);
    session.themeApplied();
  };

  function signOutLocally() {
    tokens.clear();
    session.set(signedOut);
    deps.setPreferences({});
  }

  const signedIn = () => session.get().status === 'signed-in';

  /** Runs a form's call; a failure comes back for the form to show (none: it worked). */
  async function attempt(call: () => Promise<void>): Promise<Failure | undefined> {
    try {
      await call();
      return undefined;
    } catch (err) {
      return failureOf(err, deps.retryAfterOf);
    }
  }

  async function enter(answer: Promise<Me & { token: string }>, message: (name: string) => string) {
    const me = await answer;
    tokens.set(me.token);
    show(me);
    const theme = themeOf(readPreferences(me.profile.preferences));
    if (theme) applyTheme(theme); // a new device takes the account's theme
    deps.toast(message(me.profile.displayName || me.user.email), 'success');
  }

  return {
    signOutLocally,

    /**
     * The forms' client met a 401: a signed-in visitor's token has expired (or was revoked).
     * The page's client would say so in a toast and sign out; this does the same.
     */
    expired() {
      if (!signedIn()) return; // a wrong password at sign-in is also a 401: the form says so
      deps.toast(t('translation:http.401'), 'error');
      signOutLocally();
    },

    /**
     * The session of a stored token. A 401 has already signed out (the page's client); any
     * other failure leaves the session unconfirmed, for the dialog to try again.
     */
    async resume(): Promise<boolean> {
      try {
        show(await api.me());
        return true;
      } catch {
        return false;
      }
    },

    signIn: (c: Credentials) => attempt(() => enter(api.signIn({ ...c, locale: deps.locale() }), (name) => t('signedIn', { name }))),

    signUp: (c: Credentials) => attempt(() => enter(api.signUp({ ...c, locale: deps.locale() }), () => t('signedUp'))),

    async signOut() {
      try {
        await api.signOut();
      } catch {
        // the page's client has said what failed; this device signs out all the same
      }
      signOutLocally();
      deps.toast(t('signedOut'), 'info');
    },

    updateProfile: (patch: ProfilePatch) =>
      attempt(async () => {
        show(await api.update(patch));
      }),

    savePreferences: (form: PrefsForm) =>
      attempt(async () => {
        show(await api.update({ preferences: preferencesOf(form) }));
        applyTheme(form.theme);
      }),

    deleteAccount: (password: string) =>
      attempt(async () => {
        await api.remove(password);
        signOutLocally();
        deps.toast(t('deleted'), 'success');
      }),

    /** Downloads all of the account's data; false when it failed (the page's client said why). */
    async exportData(): Promise<boolean> {
      try {
        const data = await api.exportData();
        deps.download(exportFileName, `${JSON.stringify(data, null, 2)}\n`);
        deps.toast(t('exported'), 'success');
        return true;
      } catch {
        return false;
      }
    },
  };
}
