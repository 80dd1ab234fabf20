// A history entry and what the panel does with a list of them: newest first, grouped by day in
// the page's language, filtered by tool and by a search. Pure, so it is tested without a browser.

export type Tool = 'area' | 'speed' | 'flip';
export const tools: readonly Tool[] = ['area', 'speed', 'flip'];

/** One saved calculation or flip. Never pixels: a flip is its file's name, size and steps. */
export interface HistoryEntry {
  id: string;
  tool: Tool;
  /** When it was saved, in ms since the epoch. */
  at: number;
  /** What the entry shows: the result as text, or the flipped file's name. */
  title: string;
  /** A calculator's inputs as its shareable query string ("?shape=circle&r=2"), or "". */
  query: string;
  /** A flip's facts ("1600 × 1200 · JPEG · flipped horizontally · 412 kB"), or "". */
  detail: string;
}

/** A new entry id: time first, so that ids sort by age, then randomness against collisions
 * between devices. Only [0-9a-z-]: a valid document id everywhere. */
export function newEntryId(now: number, random: () => number = Math.random): string {
  const rand = Array.from({ length: 10 }, () => Math.floor(random() * 36).toString(36)).join('');
  return `${now.toString(36).padStart(9, '0')}-${rand}`;
}

/** Whether saving candidate would repeat the newest entry: the same tool and inputs. */
export function repeatsNewest(entries: readonly HistoryEntry[], candidate: Pick<HistoryEntry, 'tool' | 'query' | 'title'>): boolean {
  const newest = newestFirst(entries)[0];
  return !!newest && newest.tool === candidate.tool && newest.query === candidate.query && newest.title === candidate.title;
}

export function newestFirst(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return [...entries].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
}

/** The entries of one tool (or all) whose title or detail contains every word of search,
 * ignoring case and accents. */
export function filterEntries(entries: readonly HistoryEntry[], tool: Tool | 'all', search: string): HistoryEntry[] {
  const words = fold(search).split(/\s+/).filter(Boolean);
  return entries.filter((e) => {
    if (tool !== 'all' && e.tool !== tool) return false;
    const text = fold(`${e.title} ${e.detail}`);
    return words.every((w) => text.includes(w));
  });
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

export interface Day {
  /** yyyy-mm-dd in the visitor's time zone: the group's key. */
  key: string;
  /** The day as the page's language writes it ("Monday, 23 November 2026"). */
  label: string;
  entries: HistoryEntry[];
}

/** The entries newest first, grouped by the visitor's calendar day. */
export function groupByDay(entries: readonly HistoryEntry[], locale: string, timeZone?: string): Day[] {
  const key = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone });
  const label = new Intl.DateTimeFormat(locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone });
  const days: Day[] = [];
  for (const e of newestFirst(entries)) {
    const k = key.format(e.at);
    const last = days[days.length - 1];
    if (last?.key === k) last.entries.push(e);
    else days.push({ key: k, label: label.format(e.at), entries: [e] });
  }
  return days;
}
