// The footer's "Cookie settings", which reopens the consent banner. It exists only where a tag
// manager is configured: the banner's chunk (./ConsentRoot.tsx) puts it in the footer once the
// banner's words are loaded in the page's language.
import { useTranslation } from '../../i18n/react';

export function CookieSettings({ onOpen }: { onOpen: (button: HTMLElement) => void }) {
  const { t } = useTranslation();
  // Focus comes back to the button when the banner closes.
  return (
    <button type="button" className="cookie-settings" onClick={(e) => onOpen(e.currentTarget)}>
      {t('consent:settings')}
    </button>
  );
}
