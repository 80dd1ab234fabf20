import { useTranslation } from '../../i18n/react';
import type { OpenedImage } from './inspect';
import type { Dispatch, Item } from './logic/workspace';
import { Preview } from './Preview';

interface Props {
  item: Item<OpenedImage>;
  /** On the stage. */
  current: boolean;
  /** More than one image is open: each gets its own download. */
  several: boolean;
  busy: boolean;
  onDownload: () => void;
  onRemove: () => void;
  dispatch: Dispatch;
}

/** One open image: its thumbnail (which puts it on the stage), name, size, crop, state and actions. */
export function ImageListItem({ item, current, several, busy, onDownload, onRemove, dispatch }: Props) {
  const { t } = useTranslation('flip');
  const { image, crop, outcome } = item;
  const name = image.file.name;
  return (
    <li className={current ? 'flip-item flip-item-current' : 'flip-item'}>
      <button
        type="button"
        className="flip-thumb"
        aria-pressed={current}
        aria-label={t('show', { name })}
        onClick={() => dispatch({ type: 'set', fields: { selected: item.key } })}
      >
        <Preview
          image={image.preview}
          width={image.width}
          height={image.height}
          transform={item.transform}
          crop={crop}
          label={t('preview', { name })}
        />
      </button>
      <p className="flip-name">
        <span>{name}</span> <span className="field-hint">{t('size', { width: image.width, height: image.height })}</span>
        {crop && <span className="field-hint"> · {t('cropped', { width: crop.width, height: crop.height })}</span>}
      </p>
      <p className={`flip-state flip-state-${outcome?.kind ?? 'ready'}`}>
        {outcome?.kind === 'error' ? outcome.reason : t(`state.${outcome?.kind ?? 'ready'}`)}
      </p>
      <div className="flip-item-actions">
        {crop && (
          <button type="button" className="secondary" onClick={() => dispatch({ type: 'cropped', key: item.key, crop: undefined })}>
            {t('cropRemove')}
          </button>
        )}
        {several && (
          <button type="button" className="secondary" aria-label={t('downloadOne', { name })} disabled={busy} onClick={onDownload}>
            {t('download')}
          </button>
        )}
        <button type="button" className="secondary" aria-label={t('remove', { name })} onClick={onRemove}>
          {t('item.remove')}
        </button>
      </div>
    </li>
  );
}
