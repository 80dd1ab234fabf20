import { useTranslation } from '../../i18n/react';
import type { Operation } from '../../lib/image/transform';
import { ariaKeys, titleKeys, type Shortcut } from './logic/shortcuts';
import type { Dispatch } from './logic/workspace';

/** The toolbar's transform buttons in order; reset has no shortcut. */
const buttons: readonly (Operation | 'undo' | 'reset')[] = ['flipH', 'flipV', 'rotateCCW', 'rotateCW', 'undo', 'reset'];

interface Props {
  canUndo: boolean;
  canReset: boolean;
  /** The name of the image on the stage, when it can be cropped (an SVG cannot). */
  croppable?: string;
  onCrop: () => void;
  busy: boolean;
  several: boolean;
  onDownload: () => void;
  dispatch: Dispatch;
}

/** Flips, turns, undo and reset, the crop step, and the download, under the stage. */
export function Toolbar({ canUndo, canReset, croppable, onCrop, busy, several, onDownload, dispatch }: Props) {
  const { t } = useTranslation('flip');
  const run = (b: (typeof buttons)[number]) =>
    dispatch(b === 'undo' ? { type: 'undone' } : b === 'reset' ? { type: 'reset' } : { type: 'operated', op: b });
  return (
    <div className="flip-toolbar" role="group" aria-labelledby="flip-tools-heading">
      {buttons.map((b) => {
        const shortcut: Shortcut | undefined = b === 'reset' ? undefined : b;
        return (
          <button
            key={b}
            type="button"
            className={b === 'undo' || b === 'reset' ? 'secondary' : undefined}
            disabled={b === 'undo' ? !canUndo : b === 'reset' && !canReset}
            aria-keyshortcuts={shortcut && ariaKeys(shortcut)}
            title={shortcut && `${t(`ops.${b}`)} (${titleKeys(shortcut)})`}
            onClick={() => run(b)}
          >
            {t(`ops.${b}`)}
          </button>
        );
      })}
      {croppable !== undefined && (
        <button type="button" className="secondary" aria-label={t('cropFor', { name: croppable })} onClick={onCrop}>
          {t('item.crop')}
        </button>
      )}
      <button type="button" className="flip-download" disabled={busy} onClick={onDownload} aria-keyshortcuts={ariaKeys('save')}>
        {several ? t('downloadZip') : t('download')}
      </button>
    </div>
  );
}
