// What every page holds of the consent banner: whether its chunk (./ConsentRoot.tsx) runs, and in which
// language its words are loaded, so that the footer shows "Cookie settings" only in that case.
import { createStore } from '../../lib/store';

/** The language whose `consent` messages are loaded; undefined while the chunk is not running. */
export const consentShell = createStore<{ language?: string }>({});

/** The banner's chunk: loaded only when a tag manager is configured. */
export const loadConsent = () => import('./ConsentRoot');
