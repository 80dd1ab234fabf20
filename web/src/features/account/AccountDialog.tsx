// The account dialog: a native modal <dialog> (focus stays inside, Esc closes it, the page
// behind is inert, and focus returns to the header's button), showing the sign-in form, the
// signed-in visitor's account, or a way to retry when the session could not be confirmed.
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import type { DialogProps } from './AccountRoot';
import { CredentialsForm } from './CredentialsForm';
import { session, useSession } from './session';
import { SignedInView } from './SignedInView';
import '../../ui/modal.css';
import { useModal } from '../../ui/useModal';
import './dialog.css';

export function AccountDialog({ account, onClose, children }: DialogProps) {
  const { t } = useTranslation('account');
  const ref = useModal();
  const s = useSession();
  // Closing goes through the element, so that the browser returns focus where it was.
  const close = () => ref.current?.close();

  // On opening, and when the view changes (signed in, signed out): focus its first control.
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [ref, s.status]);

  return (
    <dialog ref={ref} className="account-dialog modal" aria-labelledby="account-title" onClose={onClose}>
      <button type="button" className="account-close modal-close" aria-label={t('translation:ui.close')} title={t('translation:ui.close')} onClick={close}>
        <span aria-hidden="true">×</span>
      </button>
      {s.status === 'signed-in' ? (
        <SignedInView account={account} user={s.user} close={close} />
      ) : s.status === 'checking' ? (
        <Checking account={account} />
      ) : (
        <CredentialsForm account={account} />
      )}
      {children}
    </dialog>
  );
}

/** A stored token whose session could not be confirmed (offline, server down): try again, or sign out. */
function Checking({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const [state, setState] = useState<'loading' | 'failed'>('loading');
  const answered = (resumed: boolean) => {
    if (!resumed && session.get().status === 'checking') setState('failed');
  };
  useEffect(() => {
    let open = true;
    void account.resume().then((resumed) => open && answered(resumed));
    return () => {
      open = false;
    };
  }, [account]);
  const retry = () => {
    setState('loading');
    void account.resume().then(answered);
  };
  return (
    <div className="account-body">
      <h2 id="account-title">{t('title')}</h2>
      <p role="status">{state === 'loading' ? t('translation:ui.loading') : t('loadFailed')}</p>
      <div className="account-actions">
        <button type="button" onClick={retry} disabled={state === 'loading'} data-autofocus="">
          {t('retry')}
        </button>
        <button type="button" className="secondary" onClick={() => void account.signOut()}>
          {t('signOut')}
        </button>
      </div>
    </div>
  );
}

type Account = DialogProps['account'];
