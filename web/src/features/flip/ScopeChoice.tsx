import { useTranslation } from '../../i18n/react';
import type { Scope } from './logic/workspace';

/** Whether flips and turns go to every image or to the one on the stage. */
export function ScopeChoice({ scope, onChoose }: { scope: Scope; onChoose: (scope: Scope) => void }) {
  const { t } = useTranslation('flip');
  return (
    <fieldset className="flip-scope">
      <legend>{t('scope.legend')}</legend>
      {(['all', 'selected'] as const).map((value) => (
        <label key={value}>
          <input type="radio" name="flip-scope" value={value} checked={scope === value} onChange={() => onChoose(value)} />
          {t(`scope.${value}`)}
        </label>
      ))}
    </fieldset>
  );
}
