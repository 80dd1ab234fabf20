import { useTranslation } from '../../i18n/react';

interface Props {
  /** A drop zone until an image is open, then a compact button above the workspace. */
  compact: boolean;
  dragging: boolean;
  onFiles: (files: File[]) => void;
}

/** The file input, as a drop zone or as "Add images". */
export function AddImages({ compact, dragging, onFiles }: Props) {
  const { t } = useTranslation('flip');
  return (
    // One element before and after the first image, so that the file input keeps its focus.
    <div className={`${compact ? 'flip-add' : 'drop-zone'}${dragging ? ' drop-zone-active' : ''}`}>
      {!compact && <p className="drop-title">{dragging ? t('drop.active') : t('drop.title')}</p>}
      <label className={compact ? 'button secondary file-button' : 'button file-button'}>
        {compact ? t('add') : t('drop.button')}
        <input
          type="file"
          className="visually-hidden"
          multiple
          accept="image/*,.svg,.avif,.bmp"
          onChange={(e) => {
            onFiles([...(e.target.files ?? [])]);
            e.target.value = ''; // choosing the same file again still opens it
          }}
        />
      </label>
      <p className="field-hint">{!compact ? t('drop.hint') : dragging ? t('drop.active') : t('addHint')}</p>
    </div>
  );
}
