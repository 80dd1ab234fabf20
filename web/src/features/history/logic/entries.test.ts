import { describe, expect, it } from 'vitest';
import { filterEntries, groupByDay, newEntryId, newestFirst, repeatsNewest, type HistoryEntry } from './entries';

const at = (iso: string) => Date.parse(iso);
const entry = (id: string, tool: HistoryEntry['tool'], when: string, title: string, detail = ''): HistoryEntry => ({ id, tool, at: at(when), title, query: `?${id}`, detail });

const entries = [
  entry('a', 'area', '2026-11-22T23:30:00Z', 'Circle: 12.57 m²'),
  entry('b', 'speed', '2026-11-23T08:00:00Z', 'Speed: 50 km/h'),
  entry('c', 'flip', '2026-11-23T09:00:00Z', 'Crème brûlée.jpg', '1600 × 1200 · JPEG'),
];

describe('history entries', () => {
  it('makes ids that sort by time and are valid document ids', () => {
    const a = newEntryId(1000, () => 0.5);
    const b = newEntryId(2000, () => 0.1);
    expect(a < b).toBe(true);
    expect(a).toMatch(/^[0-9a-z]{9}-[0-9a-z]{10}$/);
  });

  it('orders newest first', () => {
    expect(newestFirst(entries).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });

  it('filters by tool and by every word of a search, ignoring case and accents', () => {
    expect(filterEntries(entries, 'area', '').map((e) => e.id)).toEqual(['a']);
    expect(filterEntries(entries, 'all', 'creme JPEG').map((e) => e.id)).toEqual(['c']);
    expect(filterEntries(entries, 'speed', 'circle')).toEqual([]);
  });

  it('groups by the visitor’s day, labelled in the page’s language', () => {
    const days = groupByDay(entries, 'de', 'Europe/Berlin');
    expect(days.map((d) => [d.key, d.entries.map((e) => e.id)])).toEqual([['2026-11-23', ['c', 'b', 'a']]]);
    expect(days[0].label).toBe('Montag, 23. November 2026');
    const utc = groupByDay(entries, 'ja', 'UTC');
    expect(utc.map((d) => d.key)).toEqual(['2026-11-23', '2026-11-22']);
    expect(utc[1].label).toBe('2026年11月22日日曜日');
  });

  it('does not save the same inputs twice in a row', () => {
    expect(repeatsNewest(entries, { tool: 'flip', query: '?c', title: 'Crème brûlée.jpg' })).toBe(true);
    expect(repeatsNewest(entries, { tool: 'area', query: '?a', title: 'Circle: 12.57 m²' })).toBe(false);
    expect(repeatsNewest([], { tool: 'area', query: '', title: '' })).toBe(false);
  });
});
