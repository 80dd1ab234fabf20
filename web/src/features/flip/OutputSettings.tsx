import { useTranslation } from '../../i18n/react';
import { Field } from '../../ui/fields/Field';
import { SelectField } from '../../ui/fields/SelectField';
import type { Edges } from './logic/lossless/jpeg';
import type { OutputChoice } from './logic/formats';
import type { Dispatch, Settings } from './logic/workspace';

const outputChoices: readonly OutputChoice[] = ['same', 'png', 'jpeg', 'webp'];
const metadataChoices: readonly Settings['metadata'][] = ['strip', 'keep-without-location', 'keep'];
const edgeChoices: readonly Edges[] = ['trim', 'perfect'];

interface Props {
  settings: Settings;
  /** Some image is saved by the lossless JPEG transform: the choice of its edges applies. */
  losslessJpegs: boolean;
  /** Some image is saved as JPEG or WebP by encoding: the quality applies. */
  lossy: boolean;
  dispatch: Dispatch;
}

/** The output format, the lossless transform's edges, the quality and what happens to metadata. */
export function OutputSettings({ settings, losslessJpegs, lossy, dispatch }: Props) {
  const { t } = useTranslation('flip');
  const change = (next: Partial<Settings>) => dispatch({ type: 'settingsChanged', settings: next });
  return (
    <section className="flip-controls" aria-labelledby="flip-output-heading">
      <h2 id="flip-output-heading">{t('output')}</h2>
      <SelectField
        id="flip-format"
        label={t('format')}
        value={settings.output}
        options={outputChoices.map((c) => ({ value: c, label: t(`formats.${c}`) }))}
        onChange={(output) => change({ output })}
      />
      {losslessJpegs && (
        <SelectField
          id="flip-edges"
          label={t('lossless.edges')}
          hint={t('lossless.hint')}
          value={settings.edges}
          options={edgeChoices.map((c) => ({ value: c, label: t(`lossless.edgesOptions.${c}`) }))}
          onChange={(edges) => change({ edges })}
        />
      )}
      {lossy && (
        <Field id="flip-quality" label={`${t('quality')}: ${Math.round(settings.quality * 100)} %`}>
          {(aria) => (
            <input
              id="flip-quality"
              type="range"
              min={50}
              max={100}
              value={Math.round(settings.quality * 100)}
              onChange={(e) => change({ quality: Number(e.target.value) / 100 })}
              {...aria}
            />
          )}
        </Field>
      )}
      <SelectField
        id="flip-metadata"
        label={t('metadata')}
        hint={t('metadataHint')}
        value={settings.metadata}
        options={metadataChoices.map((c) => ({ value: c, label: t(`metadataOptions.${c}`) }))}
        onChange={(metadata) => change({ metadata })}
      />
    </section>
  );
}
