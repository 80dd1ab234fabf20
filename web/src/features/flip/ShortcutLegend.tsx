import { useTranslation } from '../../i18n/react';
import { legendKeys, shortcuts } from './logic/shortcuts';

/** The list of keyboard shortcuts under the tool, read from the one table the key handler uses. */
export function ShortcutLegend() {
  const { t } = useTranslation('flip');
  return (
    <section className="flip-shortcuts" aria-labelledby="flip-shortcuts-heading">
      <h2 id="flip-shortcuts-heading">{t('shortcutsTitle')}</h2>
      <dl>
        {shortcuts.map((s) => (
          <div key={s.action}>
            <dt>
              <kbd>{legendKeys(s)}</kbd>
            </dt>
            <dd>{t(`shortcuts.${s.action}`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
