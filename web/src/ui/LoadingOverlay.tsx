// The full-screen loading overlay over the page while a request is in flight (overlay.ts holds
// its state). While it fades out it no longer catches clicks; then it is gone from the page.
import { useStore } from '../lib/store';
import { useTranslation } from '../i18n/react';
import { overlay, type OverlayState, type OverlayStore } from './overlay';

const serverState: OverlayState = { phase: 'closed', zIndex: 0 };

export function LoadingOverlay({ store = overlay }: { store?: OverlayStore }) {
  const { t } = useTranslation();
  const { phase, zIndex } = useStore(store, undefined, () => serverState);
  if (phase === 'closed') return null;
  return (
    <div
      className="loading-overlay"
      data-phase={phase}
      style={{ zIndex }}
      role="progressbar"
      aria-label={t('ui.loading')}
      aria-hidden={phase === 'closing' || undefined}
    >
      <span className="loading-spinner" />
    </div>
  );
}
