import { useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/react';
import { Cropper, cropToUpright, type CropperHandle } from '../../cropper';
import type { OpenedImage } from './inspect';
import type { Crop } from './protocol';

interface Props {
  image: OpenedImage;
  onApply: (crop: Crop) => void;
  onCancel: () => void;
}

/** The optional crop step for one image, with the image cropper (crops in the image's own pixels). */
export function CropPanel({ image, onApply, onCancel }: Props) {
  const { t } = useTranslation('flip');
  const cropper = useRef<CropperHandle>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []); // the panel opens below: take the visitor there

  const apply = () => {
    const crop = cropper.current?.getCrop();
    if (!crop) return onCancel();
    onApply(cropToUpright(crop, { width: image.width, height: image.height }));
  };

  return (
    <section className="crop-panel" aria-labelledby="crop-heading">
      <h2 id="crop-heading" ref={heading} tabIndex={-1}>{t('cropFor', { name: image.file.name })}</h2>
      <Cropper
        ref={cropper}
        src={image.file}
        fixed={false}
        autoCrop
        tools={['zoomIn', 'zoomOut', 'reset']}
        labels={{
          region: t('cropper.region'),
          instructions: t('cropper.instructions'),
          size: (width, height) => t('size', { width, height }),
          tools: t('cropper.tools'),
          zoomIn: t('cropper.zoomIn'),
          zoomOut: t('cropper.zoomOut'),
          rotateLeft: t('ops.rotateCCW'),
          rotateRight: t('ops.rotateCW'),
          reset: t('cropper.reset'),
          loading: t('cropper.loading'),
          error: t('cropper.error'),
        }}
      />
      <div className="result-actions">
        <button type="button" onClick={apply}>
          {t('cropApply')}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {t('cropCancel')}
        </button>
      </div>
    </section>
  );
}
