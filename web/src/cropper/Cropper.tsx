// The image cropper: one canvas draws the image, the dimmed outside, the crop box and its
// handles; pointer, wheel and keys act on that canvas. No style attribute, on the server or after.
// The state and its changes are cropState.ts, the imperative part controller.ts.
import { useEffect, useId, useImperativeHandle, useLayoutEffect, useState, type Ref } from 'react';
import { controller } from './controller';
import { CropperTools } from './CropperTools';
import { ZOOM_STEP } from './geometry';
import { loadImage, release, toBlob } from './load';
import { withDefaults, type CropperHandle, type CropperProps, type CropperState, type CropperTool } from './types';

export function Cropper({ ref, ...props }: CropperProps & { ref?: Ref<CropperHandle> }) {
  const p = withDefaults(props);
  const { labels } = p;
  const [ctl] = useState(() => controller(p));
  useLayoutEffect(() => ctl.update(p));
  const [state, setState] = useState<CropperState>(p.src ? 'loading' : 'idle');
  const id = useId();

  useImperativeHandle(
    ref,
    () => ({
      getCroppedCanvas: () => ctl.canvas(),
      getCroppedBlob: () => {
        try {
          return toBlob(ctl.canvas(), ctl.props().outputType, ctl.props().quality);
        } catch (e) {
          return Promise.reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
      rotate: (dir: 1 | -1) => ctl.rotate(dir),
      reset: () => ctl.reset(),
      zoom: (f: number) => ctl.zoomBy(f),
      getCrop: () => ctl.current(),
    }),
    [ctl],
  );

  useEffect(() => {
    const c = ctl.element();
    if (!c) return;
    const observer = new ResizeObserver(() => ctl.resize());
    observer.observe(c);
    const wheel = (e: WheelEvent) => ctl.wheel(e);
    c.addEventListener('wheel', wheel, { passive: false });
    return () => {
      observer.disconnect();
      c.removeEventListener('wheel', wheel);
      ctl.dispose();
    };
  }, [ctl]);

  const { src, maxImageSize } = p;
  // A new image starts loading at once (React's "adjusting state when a prop changes").
  const [shown, setShown] = useState({ src, maxImageSize });
  if (shown.src !== src || shown.maxImageSize !== maxImageSize) {
    setShown({ src, maxImageSize });
    setState(src ? 'loading' : 'idle');
  }
  useEffect(() => {
    ctl.setImage(undefined);
    if (!src) return;
    let current = true;
    loadImage(src, maxImageSize).then(
      (img) => {
        if (!current) {
          release(img.texture);
          return;
        }
        ctl.setImage(img);
        setState('loaded');
      },
      (e: unknown) => {
        if (!current) return;
        setState('error');
        ctl.props().onError?.({ type: 'image-load', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      current = false;
    };
  }, [ctl, src, maxImageSize]);

  // Effects return nothing: a callback's return value must never be taken for a cleanup.
  useEffect(() => () => ctl.setImage(undefined), [ctl]);
  useEffect(() => {
    ctl.props().onStateChange?.(state);
  }, [ctl, state]);
  const [ratioWidth, ratioHeight] = p.ratio;
  useEffect(() => {
    ctl.conform();
  }, [ctl, p.fixed, ratioWidth, ratioHeight, p.minCropSize]);
  useEffect(() => {
    ctl.refit();
  }, [ctl, p.mode]);
  const { rotation } = p;
  useEffect(() => {
    if (rotation !== undefined) ctl.rotateTo(rotation);
  }, [ctl, rotation]);

  const loaded = state === 'loaded';
  const { attachCanvas, attachLive } = ctl;
  const act: Record<CropperTool, () => void> = {
    zoomIn: () => ctl.zoomBy(ZOOM_STEP),
    zoomOut: () => ctl.zoomBy(1 / ZOOM_STEP),
    rotateLeft: () => ctl.rotate(-1),
    rotateRight: () => ctl.rotate(1),
    reset: () => ctl.reset(),
  };

  return (
    <div className={p.className ? `cropper ${p.className}` : 'cropper'} data-state={state} aria-busy={state === 'loading'}>
      <div className="cropper-stage">
        <canvas
          ref={attachCanvas}
          className="cropper-canvas"
          role="group"
          tabIndex={loaded ? 0 : -1}
          aria-label={labels.region}
          aria-describedby={`${id}i ${id}s`}
          onPointerDown={(e) => ctl.down(e)}
          onPointerMove={(e) => ctl.move(e)}
          onPointerUp={(e) => ctl.up(e)}
          onPointerCancel={(e) => ctl.up(e)}
          onLostPointerCapture={(e) => ctl.up(e)}
          onKeyDown={(e) => ctl.key(e)}
        />
        <p className="cropper-status" role="status">
          {state === 'loading' ? labels.loading : state === 'error' ? labels.error : ''}
        </p>
      </div>
      <p id={`${id}i`} className="visually-hidden">
        {labels.instructions}
      </p>
      <p id={`${id}s`} ref={attachLive} className="visually-hidden" aria-live="polite" />
      {p.tools.length > 0 && <CropperTools tools={p.tools} labels={labels} disabled={!loaded} act={act} />}
    </div>
  );
}
