import { useTranslation } from '../../i18n/react';
import type { OpenedImage } from './inspect';
import type { Dispatch, Item } from './logic/workspace';
import { ImageListItem } from './ImageListItem';

interface Props {
  items: readonly Item<OpenedImage>[];
  current: Item<OpenedImage>;
  busy: boolean;
  onDownload: (item: Item<OpenedImage>) => void;
  onRemove: (items: readonly Item<OpenedImage>[]) => void;
  dispatch: Dispatch;
}

/** The open images beside the stage, and "Clear". */
export function ImageList({ items, current, busy, onDownload, onRemove, dispatch }: Props) {
  const { t } = useTranslation('flip');
  return (
    <section className="flip-images" aria-labelledby="flip-images-heading">
      <h2 id="flip-images-heading">{t('images')}</h2>
      <ul className="flip-list">
        {items.map((item) => (
          <ImageListItem
            key={item.key}
            item={item}
            current={item === current}
            several={items.length > 1}
            busy={busy}
            onDownload={() => onDownload(item)}
            onRemove={() => onRemove([item])}
            dispatch={dispatch}
          />
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => onRemove(items)}>
        {t('clear')}
      </button>
    </section>
  );
}
