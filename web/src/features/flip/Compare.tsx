import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from '../../i18n/react';
import { identity, outputSize, type Operation } from '../../lib/image/transform';
import { ariaKeys, titleKeys } from './logic/shortcuts';
import { Preview, type Picture } from './Preview';
import { Zoom, type LoadRegion } from './Zoom';

interface Props extends Picture {
  name: string;
  /** The last flip or turn and a count of them: each new one plays its motion once. */
  motion?: { op: Operation; count: number };
  /** At 100 % rather than fitted to the stage. */
  zoomed: boolean;
  onZoom: (zoomed: boolean) => void;
  /** The full-resolution pixels for 100 %, when the preview has fewer. */
  load?: LoadRegion;
  /** The saved result, animated, as a URL: played as the result unless motion is reduced. */
  playing?: string;
}

/** Where each operation's result starts its motion from: the picture as it was. */
const motionFrom: Record<Operation, string> = {
  flipH: 'scaleX(-1)',
  flipV: 'scaleY(-1)',
  rotateCW: 'rotate(-90deg)',
  rotateCCW: 'rotate(90deg)',
};

/**
 * The selected image, as large as the stage allows: the original and the result one over the
 * other, the original shown left of a slider (mouse, touch, or arrows, Home and End), or alone;
 * or either of them at 100 %, in a view of the stage's size.
 */
export function Compare({ image, width, height, transform, crop, name, motion, zoomed, onZoom, load, playing }: Props) {
  const { t } = useTranslation('flip');
  const [split, setSplit] = useState(50);
  const [originalOnly, setOriginalOnly] = useState(false);
  const result = useRef<HTMLCanvasElement>(null);
  const shown = useRef(motion?.count); // the motions already played, or before this stage
  const c = crop ?? { width, height };
  const out = outputSize(transform, c.width, c.height);

  useEffect(() => {
    const canvas = result.current;
    // Only a flip or turn made while this image is on the stage: choosing another image
    // mounts a new stage, which must not replay the last one.
    if (!motion || motion.count === shown.current) return;
    shown.current = motion.count;
    if (!canvas || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const animation = canvas.animate([{ transform: motionFrom[motion.op] }, { transform: 'none' }], {
      duration: 160,
      easing: 'ease-out',
    });
    return () => animation.cancel();
  }, [motion]);

  const comparing = !originalOnly && !zoomed;
  // The file itself plays its frames; with reduced motion the still preview stays.
  const animated = playing !== undefined && !matchMedia('(prefers-reduced-motion: reduce)').matches;
  return (
    <div className="flip-compare">
      <div
        className="flip-view"
        // The result's proportions, so that the stage keeps its size when the preview redraws.
        style={{ '--ratio': out.width / out.height, '--split': `${comparing ? split : 100}%` } as CSSProperties}
      >
        {zoomed ? (
          <Zoom
            ref={result}
            image={image}
            width={width}
            height={height}
            transform={originalOnly ? identity : transform}
            crop={originalOnly ? undefined : crop}
            label={t(originalOnly ? 'compare.originalOf' : 'preview', { name })}
            load={load}
          />
        ) : (
          <>
            {!originalOnly && animated && <img className="flip-view-result" src={playing} alt={t('preview', { name })} />}
            {!originalOnly && !animated && (
              <Preview
                ref={result}
                className="flip-view-result"
                image={image}
                width={width}
                height={height}
                transform={transform}
                crop={crop}
                label={t('preview', { name })}
              />
            )}
            <Preview
              className="flip-view-original"
              image={image}
              width={width}
              height={height}
              transform={identity}
              label={t('compare.originalOf', { name })}
            />
          </>
        )}
        {comparing && (
          <>
            <div className="flip-split" aria-hidden="true" />
            <span className="flip-tag flip-tag-before" aria-hidden="true">
              {t('compare.before')}
            </span>
            <span className="flip-tag flip-tag-after" aria-hidden="true">
              {t('compare.after')}
            </span>
            <input
              type="range"
              className="flip-split-range"
              min={0}
              max={100}
              value={split}
              aria-label={t('compare.label')}
              aria-valuetext={t('compare.value', { original: split, result: 100 - split })}
              onChange={(e) => setSplit(Number(e.target.value))}
            />
          </>
        )}
      </div>
      <div className="flip-compare-bar">
        <button type="button" className="secondary" aria-pressed={originalOnly} onClick={() => setOriginalOnly((v) => !v)}>
          {t('compare.showOriginal')}
        </button>
        <div className="flip-zoom-choice" role="group" aria-label={t('zoom.label')}>
          <button type="button" className="secondary" aria-pressed={!zoomed} onClick={() => onZoom(false)}>
            {t('zoom.fit')}
          </button>
          <button type="button" className="secondary" aria-pressed={zoomed} aria-keyshortcuts={ariaKeys('zoom')} title={`${t('zoom.actual')} (${titleKeys('zoom')})`} onClick={() => onZoom(true)}>
            {t('zoom.actual')}
          </button>
        </div>
      </div>
    </div>
  );
}
