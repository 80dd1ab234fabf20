// What the rest of the site uses of the consent banner: starting it (only where a tag manager
// is configured: everything else, the footer's "Cookie settings" too, is in its own chunk, ./ConsentRoot.tsx).
import type { I18n } from '../../i18n/translator';
import type { Readable } from '../../lib/store';
import type { View } from '../../router/view';
import { loadConsent } from './shell';


/**
 * Starts the banner's chunk when the page's boot data names a tag manager's container; without
 * one, nothing happens at all. Call it after hydration.
 */
export function startConsent(views: Readable<View>, i18n: I18n, container: string | undefined) {
  if (!container?.startsWith('http')) return; // none configured, or a page the server did not fill in
  loadConsent().then(
    (c) => c.start(views, i18n, container),
    (err: unknown) => console.warn('The consent banner could not be loaded:', err),
  );
}
