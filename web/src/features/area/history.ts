// Saving a area result to the history: the result's text, and the inputs as the link's query.
import { saveToHistory, type SaveOutcome } from '../history/public';

export const saveResult = (title: string, query: string): Promise<SaveOutcome> => saveToHistory({ tool: 'area', title, query, detail: '' });
