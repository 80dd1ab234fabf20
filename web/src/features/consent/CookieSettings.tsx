// The footer's "Cookie settings", which reopens the consent banner. It exists only where a tag
// manager is configured, and appears after hydration (the prerendered page never has it), once
// the banner's words are loaded in the page's language.
import { useTranslation } from '../../i18n/react';
import { useStore } from '../../lib/store';
import { consentShell, loadConsent } from './shell';

/** The prerendered page's value: hydration matches it, and the button appears right after. */
const notRunning: { language?: string } = {};

export function CookieSettings() {
  const { t, i18n } = useTranslation();
  const { language } = useStore(consentShell, undefined, () => notRunning);
  if (language !== i18n.language) return null;
  return (
    <li>
      <button
        type="button"
        className="cookie-settings"
        onClick={(e) => {
          const button = e.currentTarget; // focus comes back here when the banner closes
          void loadConsent().then((c) => c.openSettings(button));
        }}
      >
        {t('consent:settings')}
      </button>
    </li>
  );
}
