// Saving from a tool (its Save button, a copy, a download). The history's code loads on the
// first save; the badge counts what was saved since the panel was last opened.
import { newEntryId, type HistoryEntry } from './logic/entries';
import { addUnseen } from './unseen';

export type SaveOutcome = 'saved' | 'repeat' | 'failed';

export async function saveToHistory(entry: Omit<HistoryEntry, 'id' | 'at'>): Promise<SaveOutcome> {
  try {
    const { history } = await import('./runtime');
    const now = Date.now();
    const saved = await (await history()).save({ ...entry, id: newEntryId(now), at: now });
    if (!saved) return 'repeat';
    addUnseen();
    return 'saved';
  } catch (err) {
    console.error('Saving to the history failed:', err);
    return 'failed';
  }
}
