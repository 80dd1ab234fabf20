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
import type { Storage } from './logic/storage';
import { preferencesOf, readPreferences, themeOf } from './logic/savedPreferences';
import { signedOut, type SessionStore } from './session';
import type { UserDocument } from '../history/public';

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
  /** The history: the account's synced copy while signed in. */
  history: {
    /** keep: the device-only history moves into the account. */
    enter(uid: string, keep: boolean): Promise<void>;
    /** erase: the account's copy leaves this device (not when a session merely expired). */
    leave(erase: boolean): Promise<void>;
    /** users/{uid} in the synced copy (any kept user's without uid); undefined without one. */
    userDocument(uid?: string): Promise<UserDocument | undefined>;
  };
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

  // The preferences follow the synced copy of users/{uid}: changed on another device (or here,
  // offline), they reach the pages without asking the server.
  let unfollow = () => {};
  let followed = '';
  async function followPreferences(uid?: string) {
    const doc = await deps.history.userDocument(uid);
    if (!doc) return;
    unfollow();
    const apply = async () => {
      const raw = (await doc.read()).preferences;
      const json = JSON.stringify(raw ?? null);
      if (raw === undefined || json === followed) return;
      followed = json;
      deps.setPreferences(readPreferences(raw));
    };
    unfollow = doc.subscribe(() => void apply().catch(() => undefined));
    await apply();
  }

  /** erase: a sign-out or a deletion, so the account's data leaves this device; an expired
   * session keeps its unsent changes for the same user's next sign-in. */
  function signOutLocally(erase = false) {
    unfollow();
    unfollow = () => {};
    followed = '';
    tokens.clear();
    session.set(signedOut);
    deps.setPreferences({});
    void deps.history.leave(erase).catch((err: unknown) => console.warn('The history could not be closed:', err));
  }

  /** The history follows the session; a failure there never stops the sign-in. */
  const enterHistory = (uid: string, keep: boolean) =>
    void deps.history
      .enter(uid, keep)
      .then(() => followPreferences(uid))
      .catch((err: unknown) => console.warn('The account’s history could not be opened:', err));

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

  async function enter(answer: Promise<Me & { token: string }>, message: (name: string) => string, keepHistory: boolean) {
    const me = await answer;
    tokens.set(me.token);
    show(me);
    enterHistory(me.user.id, keepHistory);
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
        const me = await api.me();
        show(me);
        enterHistory(me.user.id, false);
        return true;
      } catch {
        return false;
      }
    },

    signIn: (c: Credentials, keepHistory = true) =>
      attempt(() => enter(api.signIn({ ...c, locale: deps.locale() }), (name) => t('signedIn', { name }), keepHistory)),

    signUp: (c: Credentials, keepHistory = true) => attempt(() => enter(api.signUp({ ...c, locale: deps.locale() }), () => t('signedUp'), keepHistory)),

    async signOut() {
      try {
        await api.signOut();
      } catch {
        // the page's client has said what failed; this device signs out all the same
      }
      signOutLocally(true);
      deps.toast(t('signedOut'), 'info');
    },

    updateProfile: (patch: ProfilePatch) =>
      attempt(async () => {
        show(await api.update(patch));
      }),

    /** Into the synced copy when this device keeps one (at once, offline too: sent when the
     * server answers), else straight to the server. */
    savePreferences: (form: PrefsForm) =>
      attempt(async () => {
        const preferences = preferencesOf(form);
        const s = session.get();
        const doc = s.status === 'signed-in' ? await deps.history.userDocument(s.user.id) : undefined;
        if (doc) {
          await doc.set('preferences', preferences);
          followed = JSON.stringify(preferences);
          deps.setPreferences(readPreferences(preferences));
        } else {
          show(await api.update({ preferences }));
        }
        applyTheme(form.theme);
      }),

    /** A stored session, before the server confirms it (offline perhaps): the preferences the
     * synced copy holds. */
    followPreferences: () => followPreferences().catch((err: unknown) => console.warn('The synced preferences could not be read:', err)),

    /** Every other session ends; this one stays. */
    changePassword: (current: string, next: string) =>
      attempt(async () => {
        await api.changePassword(current, next);
        deps.toast(t('security.changed'), 'success');
      }),

    /** Every session ends, this one too; false when the server could not be told (the page's
     * client said why), and this device then stays signed in. */
    async signOutEverywhere(): Promise<boolean> {
      try {
        await api.signOutEverywhere();
      } catch {
        return false;
      }
      signOutLocally(true);
      deps.toast(t('security.signedOutEverywhere'), 'info');
      return true;
    },

    deleteAccount: (password: string) =>
      attempt(async () => {
        await api.remove(password);
        signOutLocally(true);
        deps.toast(t('deleted'), 'success');
      }),

    /** The storage used and the quota, read afresh; undefined when they could not be read. */
    async storage(): Promise<Storage | undefined> {
      try {
        return (await api.me()).storage;
      } catch {
        return undefined;
      }
    },

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
