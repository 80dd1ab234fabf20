// The history's data, opened on first use (a save, or the panel): for now the device-only copy
// in IndexedDB (`handy-history`), which an anonymous visitor's history is.
import { messages } from '../../sync/errors';
import { openLocal } from '../../sync/local';
import { historyStore, type HistoryStore } from './store';

export const localDatabase = 'handy-history';

let opened: Promise<HistoryStore> | undefined;

/** The history store, opened once per page. */
export function history(): Promise<HistoryStore> {
  opened ??= openLocal(localDatabase, (name) => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name))).then(
    (client) => historyStore(client),
    (err: unknown) => {
      console.warn(messages.unavailable, err);
      opened = undefined; // try again next time
      throw err;
    },
  );
  return opened;
}
