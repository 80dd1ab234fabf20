import type { CropperLabels, CropperTool } from './types';

const ICONS: Record<CropperTool, string> = {
  zoomIn: 'M5 12h14M12 5v14',
  zoomOut: 'M5 12h14',
  rotateLeft: 'M2 4v6h6M3.5 15A9 9 0 1 0 5.6 5.6L2 10',
  rotateRight: 'M22 4v6h-6M20.5 15A9 9 0 1 1 18.4 5.6L22 10',
  reset: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
};

interface Props {
  tools: readonly CropperTool[];
  labels: CropperLabels;
  disabled: boolean;
  act: Record<CropperTool, () => void>;
}

/** The cropper's icon buttons: zoom, rotate, reset. */
export function CropperTools({ tools, labels, disabled, act }: Props) {
  return (
    <div className="cropper-tools" role="group" aria-label={labels.tools}>
      {tools.map((t) => (
        <button key={t} type="button" className="cropper-button" data-tool={t} aria-label={labels[t]} title={labels[t]} disabled={disabled} onClick={act[t]}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={ICONS[t]} />
          </svg>
        </button>
      ))}
    </div>
  );
}
