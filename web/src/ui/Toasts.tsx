// The toast stack at the top centre of the page (toasts.ts holds the messages and timers). It
// is one polite live region, always in the page so that screen readers hear what is added;
// errors are alerts, announced at once. Esc closes the toast with focus, else the newest.
import { useEffect, type FocusEvent } from 'react';
import { useStore } from '../lib/store';
import { useTranslation } from '../i18n/react';
import { toasts, type Toast, type ToastStore, type ToastType } from './toasts';

const none: readonly Toast[] = [];
const icons: Record<ToastType, string> = { info: 'i', success: '✓', warning: '!', error: '!' };

export function Toasts({ store = toasts }: { store?: ToastStore }) {
  const { t } = useTranslation();
  const list = useStore(store, undefined, () => none);
  const showing = list.length > 0;

  useEffect(() => {
    if (!showing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const focused = document.activeElement?.closest<HTMLElement>('[data-toast-id]');
      if (focused) store.close(Number(focused.dataset.toastId));
      else if (document.querySelector('dialog[open]')) return; // that Esc closes the dialog
      else store.closeNewest();
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [showing, store]);

  return (
    <div className="toasts" aria-live="polite" style={{ zIndex: list.at(-1)?.zIndex }}>
      {list.map(({ id, message, type }) => {
        const onBlur = (e: FocusEvent<HTMLElement>) => {
          if (!e.currentTarget.contains(e.relatedTarget)) store.resume(id, 'focus');
        };
        return (
          <div
            key={id}
            className={`toast toast-${type}`}
            data-toast-id={id}
            role={type === 'error' ? 'alert' : undefined}
            onMouseEnter={() => store.pause(id, 'hover')}
            onMouseLeave={() => store.resume(id, 'hover')}
            onFocus={() => store.pause(id, 'focus')}
            onBlur={onBlur}
          >
            <span className="toast-icon" aria-hidden="true">
              {icons[type]}
            </span>
            <p className="toast-message">{message}</p>
            <button type="button" className="toast-close" aria-label={t('ui.close')} onClick={() => store.close(id)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
        );
      })}
    </div>
  );
}
