import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from '../i18n/react';
import { applyTheme, nextTheme, storedTheme, type ThemeChoice } from './theme';

const icons: Record<ThemeChoice, ReactNode> = {
  // Half light, half dark: follows the device.
  auto: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path className="fill" d="M12 3a9 9 0 0 0 0 18z" />
    </>
  ),
  light: (
    <>
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1" />
    </>
  ),
  dark: <path className="fill" d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z" />,
};

const unwatched = () => () => {};

/** One button that cycles automatic → light → dark; its name says the current theme. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  // The prerendered page cannot know the stored choice: it renders "automatic", then the
  // stored one after hydration (the page itself is already in the right colours). Storage is
  // read, not watched: the switch itself is what changes it, and it says so in `picked`.
  const stored = useSyncExternalStore<ThemeChoice>(unwatched, storedTheme, () => 'auto');
  const [picked, setPicked] = useState<ThemeChoice>();
  const choice = picked ?? stored;
  const label = `${t('theme.label')}: ${t(`theme.${choice}`)}`;
  return (
    <button
      type="button"
      className="theme-switch"
      aria-label={label}
      title={label}
      onClick={() => {
        const next = nextTheme(choice);
        applyTheme(next);
        setPicked(next);
      }}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="header-icon">
        {icons[choice]}
      </svg>
    </button>
  );
}
