// The preferences the server keeps (users/{uid}.preferences), read and written without the
// calculators' code, so that resuming a session loads none of it.
import type { Preferences, ToolPreferences } from '../../../lib/preferences';
import { themeChoices, type ThemeChoice } from '../../../theme/theme';
import type { PrefsForm } from './prefsForm';

/** The preferences the server returned, kept only where they have the expected shape. */
export function readPreferences(raw: unknown): Preferences {
  if (!raw || typeof raw !== 'object') return {};
  const { theme, language, tools } = raw as Record<string, unknown>;
  const out: { theme?: string; language?: string; tools?: Record<string, ToolPreferences> } = {};
  if (typeof theme === 'string') out.theme = theme;
  if (typeof language === 'string') out.language = language;
  if (tools && typeof tools === 'object') {
    out.tools = {};
    for (const [tool, settings] of Object.entries(tools as Record<string, unknown>)) {
      if (!settings || typeof settings !== 'object') continue;
      const strings: Record<string, string> = {};
      for (const [k, v] of Object.entries(settings)) if (typeof v === 'string') strings[k] = v;
      out.tools[tool] = strings;
    }
  }
  return out;
}

/** The saved theme, when it is one of the choices. */
export function themeOf(p: Preferences): ThemeChoice | undefined {
  return (themeChoices as readonly string[]).includes(p.theme ?? '') ? (p.theme as ThemeChoice) : undefined;
}

/** The `preferences` of PATCH /auth/me for a form: every setting, explicitly. */
export function preferencesOf(form: PrefsForm) {
  return {
    theme: form.theme,
    language: form.language,
    tools: {
      'area-calculator': { ...form.area },
      'speed-calculator': { ...form.speed },
    },
  } satisfies Preferences;
}
