// Preferences: the units and decimals each calculator opens with, the theme and the language.
// Saved to the account, and applied at once: the calculators read them (preferences.ts), the
// theme is applied, and a link leads to this page in the chosen language.
import { useState, type FormEvent } from 'react';
import { precisionChoices } from '../../calculator/logic/precision';
import { SelectField } from '../../ui/fields/SelectField';
import { distanceUnitOptions, speedUnitOptions } from '../speed/public';
import { useTranslation } from '../../i18n/react';
import { getPreferences } from '../../lib/preferences';
import { locales, localeOf, pagePath, resolve } from '../../lib/site';
import { storedTheme, themeChoices, type ThemeChoice } from '../../theme/theme';
import { areaUnitIds, areaUnitSymbols } from '../area/public';
import { lengthUnits, type LengthUnit } from '../../calculator/logic/length';
import { toasts } from '../../ui/toasts';
import type { Account } from './controller';
import { errorText, fieldError, type FieldError } from './logic/errors';
import { FormError } from '../../ui/fields/Field';
import { prefsForm, type PrefsForm } from './logic/prefsForm';

const lengthUnitIds = Object.keys(lengthUnits) as LengthUnit[];

interface Props {
  account: Account;
  /** Closes the dialog (following the language link). */
  close: () => void;
}

export function PreferencesPanel({ account, close }: Props) {
  const { t, i18n } = useTranslation('account');
  const tr = i18n.t;
  const speedT = i18n.fixedT('speed');
  const lang = localeOf(i18n.language).lang;
  const [form, setForm] = useState<PrefsForm>(() => prefsForm(getPreferences(), { theme: storedTheme(), language: i18n.language }));
  const [error, setError] = useState<FieldError>();

  const area = (patch: Partial<PrefsForm['area']>) => setForm((f) => ({ ...f, area: { ...f.area, ...patch } }));
  const speed = (patch: Partial<PrefsForm['speed']>) => setForm((f) => ({ ...f, speed: { ...f.speed, ...patch } }));
  const decimals = precisionChoices.map((p) => ({ value: p, label: p }));
  // The theme's names are written to follow "Theme:" in the switch; here they start a line.
  const capital = (s: string) => s.charAt(0).toLocaleUpperCase(lang) + s.slice(1);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    const failure = await account.savePreferences(form);
    if (failure) setError(fieldError(failure));
    else toasts.show(t('prefsSaved'), { type: 'success' });
  };

  // This page in the chosen language, keeping its query string.
  const route = resolve(location.pathname);
  const other = form.language !== i18n.language && localeOf(form.language);

  return (
    <form noValidate onSubmit={(e) => void save(e)} className="account-prefs">
      <p className="account-intro">{t('prefsIntro')}</p>
      <fieldset>
        <legend>{tr('pages.area-calculator.label')}</legend>
        <SelectField
          id="account-area-unit"
          label={t('area:lengthUnit')}
          value={form.area.unit}
          options={lengthUnitIds.map((u) => ({ value: u, label: `${t(`calculator:units.${u}`)} (${u})` }))}
          onChange={(unit) => area({ unit })}
        />
        <SelectField
          id="account-area-in"
          label={t('area:areaUnit')}
          value={form.area.in}
          options={[
            { value: '' as const, label: t('areaSquare') },
            ...areaUnitIds.map((u) => ({ value: u, label: `${t(`area:areaUnits.${u}`)} (${areaUnitSymbols[u]})` })),
          ]}
          onChange={(unit) => area({ in: unit })}
        />
        <SelectField id="account-area-dp" label={t('calculator:precision')} value={form.area.dp} options={decimals} onChange={(dp) => area({ dp })} />
      </fieldset>
      <fieldset>
        <legend>{tr('pages.speed-calculator.label')}</legend>
        <SelectField id="account-speed-vu" label={t('speed:speedUnit')} value={form.speed.vu} options={speedUnitOptions(speedT)} onChange={(vu) => speed({ vu })} />
        <SelectField id="account-speed-du" label={t('speed:distanceUnit')} value={form.speed.du} options={distanceUnitOptions(speedT)} onChange={(du) => speed({ du })} />
        <SelectField id="account-speed-dp" label={t('calculator:precision')} value={form.speed.dp} options={decimals} onChange={(dp) => speed({ dp })} />
      </fieldset>
      <fieldset>
        <legend>{t('appearance')}</legend>
        <SelectField<ThemeChoice>
          id="account-theme"
          label={tr('theme.label')}
          value={form.theme}
          options={themeChoices.map((c) => ({ value: c, label: capital(tr(`theme.${c}`)) }))}
          onChange={(theme) => setForm((f) => ({ ...f, theme }))}
        />
        <SelectField
          id="account-language"
          label={tr('nav.language')}
          value={form.language}
          options={locales.map((l) => ({ value: l.code, label: l.name, lang: l.lang }))}
          onChange={(language) => setForm((f) => ({ ...f, language }))}
        />
        {other && (
          <p className="account-language-link">
            <a href={pagePath(route?.page ?? 'index', other.code) + location.search} hrefLang={other.lang} onClick={close}>
              {t('openIn', { language: other.name })}
            </a>
          </p>
        )}
      </fieldset>
      <FormError id="account-prefs-error" message={error && errorText(t, error, lang)} />
      <div className="account-actions">
        <button type="submit">{t('savePrefs')}</button>
      </div>
    </form>
  );
}
