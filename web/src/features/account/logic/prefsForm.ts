// The preferences form: what the server keeps (users/{uid}.preferences) as the dialog's fields.
// A tool's settings are read with the calculator's own query codec, so the dialog shows exactly
// what the calculator will open with, and an unknown value falls back the same way.
import { areaCodec, type AreaUnit } from '../../area/public';
import type { Precision } from '../../../calculator/logic/precision';
import { speedCodec, type DistanceUnit, type SpeedOrPaceUnit } from '../../speed/public';
import type { toolSettings, Preferences } from '../../../lib/preferences';
import { isLocaleCode, type LocaleCode } from '../../../lib/site';
import type { ThemeChoice } from '../../../theme/theme';
import type { LengthUnit } from '../../../calculator/logic/length';
import { themeOf } from './savedPreferences';

export interface PrefsForm {
  area: { unit: LengthUnit; in: AreaUnit | ''; dp: Precision };
  speed: { vu: SpeedOrPaceUnit; du: DistanceUnit; dp: Precision };
  theme: ThemeChoice;
  language: LocaleCode;
}

const paramsOf = (p: Preferences, tool: keyof typeof toolSettings) => new URLSearchParams(p.tools?.[tool] ?? {});

/** The form for saved preferences; what is not saved is the calculators' default, this device's theme and this page's language. */
export function prefsForm(p: Preferences, current: { theme: ThemeChoice; language: LocaleCode }): PrefsForm {
  // Tool settings hold no numbers, so the codecs' language does not matter here.
  const area = areaCodec('en').decode(paramsOf(p, 'area-calculator'));
  const speed = speedCodec('en').decode(paramsOf(p, 'speed-calculator'));
  return {
    area: { unit: area.unit, in: area.areaUnit, dp: area.precision },
    speed: { vu: speed.speedUnit, du: speed.distanceUnit, dp: speed.precision },
    theme: themeOf(p) ?? current.theme,
    language: p.language && isLocaleCode(p.language) ? p.language : current.language,
  };
}
