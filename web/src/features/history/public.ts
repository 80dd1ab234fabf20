// What the rest of the site uses of the history: the header's button, and saving from a tool.
// Both are small; the panel and the data layer load on first use.
export { HistoryButton } from './HistoryButton';
export { saveToHistory, type SaveOutcome } from './save';
export type { Tool } from './logic/entries';

/** The account's side of the history (sign-in, sign-out), loaded when first used. */
export const historySession = {
  connect: (...args: Parameters<typeof import('./runtime').connect>) => import('./runtime').then((r) => r.connect(...args)),
  enter: (...args: Parameters<typeof import('./runtime').enter>) => import('./runtime').then((r) => r.enter(...args)),
  leave: (erase: boolean) => import('./runtime').then((r) => r.leave(erase)),
  deviceEntries: () => import('./runtime').then((r) => r.deviceEntries()),
  userDocument: (uid?: string) => import('./runtime').then((r) => r.userDocument(uid)),
};
export type { UserDocument } from './runtime';
export type { SessionHandlers } from './news';
