// A signed-in visitor's preferences, for the pages to use: a tiny store the account code fills
// (after sign-in, and when the visitor changes them) and the calculators read. A tool's
// preferences are default query parameters (`{ unit: 'cm', dp: '3' }` for the area calculator):
// the calculator's own codec validates them like any link, and a shared link still carries its
// units explicitly. Anonymous visitors have none; nothing here is stored in the browser.
import { createStore, useStore } from './store';

/** Settings of one tool, by query parameter. */
export type ToolPreferences = Readonly<Record<string, string>>;

export interface Preferences {
  theme?: string;
  language?: string;
  /** By tool page: 'area-calculator', 'speed-calculator'. */
  tools?: Readonly<Record<string, ToolPreferences>>;
}

/** The query parameters each tool takes as preferences (units and decimals). */
export const toolSettings = {
  'area-calculator': ['unit', 'in', 'dp'],
  'speed-calculator': ['vu', 'du', 'dp'],
} as const satisfies Record<string, readonly string[]>;

const none: Preferences = {};
const store = createStore(none);

export const setPreferences = (p: Preferences): void => store.set(p);

export const getPreferences = (): Preferences => store.get();

/** The current preferences; none while prerendering and hydrating. */
export const usePreferences = (): Preferences => useStore(store, undefined, () => none);

/** A tool's preferences, only the settings it takes, as strings. */
export function toolPreferences(p: Preferences, tool: keyof typeof toolSettings): ToolPreferences | undefined {
  const saved = p.tools?.[tool];
  if (!saved) return undefined;
  const out: Record<string, string> = {};
  for (const key of toolSettings[tool]) if (typeof saved[key] === 'string') out[key] = saved[key];
  return out;
}

/** A query with a tool's preferences filled in where the query does not say. */
export function withPreferences(params: URLSearchParams, tool: ToolPreferences | undefined): URLSearchParams {
  if (!tool) return params;
  const out = new URLSearchParams(params);
  for (const [key, value] of Object.entries(tool)) if (!out.has(key) && typeof value === 'string') out.set(key, value);
  return out;
}
