// The account chunk, loaded by the header's button (AccountButton.tsx) when it is used, or in
// the background when a token is stored. It wires the page's HTTP client to the translator and
// to signing out, mounts the toasts and the loading overlay, and holds the dialog, whose own
// chunk (AccountDialog.tsx: forms, preferences, the image cropper) loads when it first opens.
import type { ComponentType, ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ensureNamespaces, type Namespace } from '../../i18n';
import { I18nProvider } from '../../i18n/react';
import type { I18n } from '../../i18n/translator';
import { setPreferences } from '../../lib/preferences';
import { createStore, useStore } from '../../lib/store';
import { reloadOnce } from '../../router/reloadGuard';
import { applyTheme } from '../../theme/theme';
import { connectHttp, createHttpClient, http, readCookie, requestUrl, tokenKey } from '../../ui/http';
import { LoadingOverlay } from '../../ui/LoadingOverlay';
import { overlay } from '../../ui/overlay';
import { Toasts } from '../../ui/Toasts';
import { toasts } from '../../ui/toasts';
import { historySession, type SessionHandlers } from '../history/public';
import { createAccountApi } from './api';
import { createAccount, type Account } from './controller';
import { session } from './session';

/** What the dialog needs: its own words, and the calculators' unit names for the preferences. */
const dialogNamespaces: readonly Namespace[] = ['account', 'calculator', 'area', 'speed'];

export interface DialogProps {
  account: Account;
  onClose: () => void;
  /** The toasts and the overlay: inside the modal dialog while it is open, or they would sit under it. */
  children: ReactNode;
}

interface Runtime {
  account: Account;
  historyNews: SessionHandlers;
  open(): Promise<void>;
}

let runtime: Runtime | undefined;

function start(i18n: I18n): Runtime {
  const storage = () => globalThis.localStorage;
  // The forms' client: the same overlay and token, but it leaves failures to the form, and
  // remembers each answer's Retry-After (a rate-limited sign-in says when to try again).
  const retryAfter = new Map<string, string | null>();
  const forms = createHttpClient({
    fetch: async (input, init) => {
      const res = await globalThis.fetch(input, init);
      retryAfter.set(requestUrl(input), res.headers.get('Retry-After'));
      return res;
    },
    storage,
    cookie: (name) => readCookie(name),
    overlay,
    toast: () => {},
    t: i18n.t,
    onUnauthorized: () => account.expired(),
  });
  // What the history's synced copy tells this page: a change the server refused and undid, a
  // token it no longer knows.
  const historyNews: SessionHandlers = {
    onExpired: () => account.expired(),
    onRejected: (reason) => void toasts.show(i18n.t('account:changeRejected', { reason }), { type: 'error' }),
  };
  const account = createAccount({
    api: createAccountApi({ http, forms, cookie: (name) => readCookie(name) }),
    session,
    tokens: {
      set: (token) => storage().setItem(tokenKey, token),
      clear: () => {
        try {
          storage().removeItem(tokenKey);
        } catch {
          // storage refused: there is no token to clear either
        }
      },
    },
    setPreferences,
    applyTheme: (choice) => applyTheme(choice),
    toast: (message, type) => void toasts.show(message, { type }),
    t: i18n.fixedT('account'),
    locale: () => i18n.language,
    retryAfterOf: (url) => retryAfter.get(url),
    download,
    history: {
      enter: (uid, keep) => historySession.enter(uid, { keep, ...historyNews }),
      leave: (erase) => historySession.leave(erase),
      userDocument: (uid) => historySession.userDocument(uid),
    },
  });
  connectHttp({ t: i18n.t, onUnauthorized: () => account.signOutLocally() });

  // The dialog: its component once loaded, and whether it is open.
  const dialog = createStore<{ Dialog?: ComponentType<DialogProps>; open: boolean }>({ open: false });
  const set = (next: Partial<ReturnType<typeof dialog.get>>) => dialog.set((s) => ({ ...s, ...next }));

  function AccountRoot() {
    const { Dialog, open } = useStore(dialog);
    const layers = (
      <>
        <Toasts />
        <LoadingOverlay />
      </>
    );
    return (
      <>
        {!open && layers}
        {Dialog && open && (
          <Dialog account={account} onClose={() => set({ open: false })}>
            {layers}
          </Dialog>
        )}
      </>
    );
  }

  // A page in another language (the back button while the dialog is open): its words follow.
  i18n.subscribe(() => {
    void ensureNamespaces(i18n, dialog.get().Dialog ? dialogNamespaces : ['account']).then(() => set({}));
  });

  const el = document.createElement('div');
  el.id = 'account-root';
  document.body.append(el);
  createRoot(el).render(
    <I18nProvider i18n={i18n}>
      <AccountRoot />
    </I18nProvider>,
  );

  return {
    account,
    historyNews,
    async open() {
      const [mod] = await Promise.all([import('./AccountDialog'), ensureNamespaces(i18n, dialogNamespaces)]);
      set({ Dialog: mod.AccountDialog, open: true });
    },
  };
}

const runtimeFor = (i18n: I18n) => (runtime ??= start(i18n));

/** Opens the account dialog (the header's button). */
export function open(i18n: I18n): void {
  runtimeFor(i18n)
    .open()
    .catch((err: unknown) => {
      if (!reloadOnce(location.pathname + location.search)) console.error('The account dialog failed to load:', err);
    });
}

/** Confirms the stored token's session in the background (a page load with a token). */
export async function resume(i18n: I18n): Promise<void> {
  void ensureNamespaces(i18n, ['account']);
  const { account, historyNews } = runtimeFor(i18n);
  void account.followPreferences(); // from the synced copy at once, offline too
  // Before the session is confirmed, which offline it cannot be until the network is back: a
  // change refused meanwhile must still be said (features/history/news.ts).
  void historySession.connect(historyNews).catch((err: unknown) => console.warn('The history could not be connected:', err));
  await account.resume();
}

/** Saves text as a file: a link to it, clicked without being put in the page. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
