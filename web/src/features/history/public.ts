// What the rest of the site uses of the history: the header's button, and saving from a tool.
// Both are small; the panel and the data layer load on first use.
export { HistoryButton } from './HistoryButton';
export { saveToHistory, type SaveOutcome } from './save';
export type { Tool } from './logic/entries';
