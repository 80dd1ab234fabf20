import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { useTranslation } from '../../i18n/react';
import { canvasMatrix, outputSize, transformKey, type Transform } from '../../lib/image/transform';
import { around, covers, toResult, toUpright, type Point } from './logic/zoom';
import type { Picture } from './Preview';
import { MAX_CANVAS_PIXELS, type Crop, type Rect } from './protocol';

/** Full-resolution pixels of a region of the result, from the worker; undefined if it failed. */
export type LoadRegion = (transform: Transform, crop: Crop | undefined, rect: Rect) => Promise<ImageBitmap | undefined>;

interface Props extends Picture {
  label: string;
  /** Absent when the preview already has every pixel (a small image, an SVG). */
  load?: LoadRegion;
  ref?: RefObject<HTMLCanvasElement | null>;
}

/**
 * The picture at 100 %: one pixel of the image on one pixel of the screen. A scrolling box the
 * result's size in device pixels moves the view (scroll, touch, arrow keys, or a drag with the
 * mouse), and a canvas the view's size draws what is in sight: the preview enlarged at once,
 * then the full-resolution pixels around the view as soon as the worker has drawn them.
 */
export function Zoom({ image, width, height, transform, crop, label, load, ref }: Props) {
  const { t } = useTranslation('flip');
  const own = useRef<HTMLCanvasElement>(null);
  const canvas = ref ?? own;
  const scroller = useRef<HTMLDivElement>(null);
  const [dpr, setDpr] = useState(() => devicePixelRatio);
  const [failed, setFailed] = useState<string>();
  const [arrivals, setArrivals] = useState(0);
  const c = crop ?? { x: 0, y: 0, width, height };
  const size = outputSize(transform, c.width, c.height);
  // What is drawn: a new transform or crop needs new full-resolution pixels.
  const key = `${transformKey(transform)} ${c.x} ${c.y} ${c.width} ${c.height}`;
  /** The point of the upright image at the view's centre: it stays there when the key changes. */
  const center = useRef<Point>(undefined);
  const region = useRef<{ key: string; rect: Rect; bitmap: ImageBitmap }>(undefined);
  const loading = useRef<string>(undefined);
  const drag = useRef<Point>(undefined);

  // A region that arrives asks for a paint (an effect below), which asks for more if needed.
  const landed = useEffectEvent((forKey: string, rect: Rect, bitmap: ImageBitmap | undefined) => {
    loading.current = undefined;
    if (!bitmap) return setFailed(forKey);
    if (!scroller.current) return bitmap.close(); // the view was closed meanwhile
    if (forKey === key) {
      region.current?.bitmap.close();
      region.current = { key, rect, bitmap };
    } else bitmap.close(); // flipped meanwhile: the next paint asks for the new pixels
    setArrivals((n) => n + 1);
  });

  const paint = useEffectEvent(() => {
    const box = scroller.current;
    const ctx = canvas.current?.getContext('2d');
    if (!box || !ctx) return;
    const vw = Math.round(box.clientWidth * dpr);
    const vh = Math.round(box.clientHeight * dpr);
    if (vw === 0 || vh === 0) return; // not laid out (a printed page, a hidden tab's resize)
    if (ctx.canvas.width !== vw || ctx.canvas.height !== vh) {
      ctx.canvas.width = vw;
      ctx.canvas.height = vh;
      ctx.canvas.style.width = `${vw / dpr}px`;
      ctx.canvas.style.height = `${vh / dpr}px`;
    }
    // Where the result's top-left corner lands on the canvas: centred when it is the smaller.
    const ox = size.width < vw ? Math.floor((vw - size.width) / 2) : -Math.round(box.scrollLeft * dpr);
    const oy = size.height < vh ? Math.floor((vh - size.height) / 2) : -Math.round(box.scrollTop * dpr);
    const view = { x: -ox, y: -oy, width: vw, height: vh };
    center.current = toUpright({ x: view.x + vw / 2, y: view.y + vh / 2 }, transform, c);

    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, vw, vh);
    const scale = image.width / width; // preview pixels per image pixel
    ctx.imageSmoothingEnabled = scale < 1; // enlarged meanwhile; a full-size preview is drawn 1:1
    ctx.setTransform(1, 0, 0, 1, ox, oy);
    ctx.transform(...canvasMatrix(transform, c.width, c.height));
    ctx.drawImage(image, c.x * scale, c.y * scale, c.width * scale, c.height * scale, 0, 0, c.width, c.height);
    if (!load || scale >= 1) return;

    const sharp = region.current?.key === key ? region.current : undefined;
    if (sharp) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(sharp.bitmap, sharp.rect.x + ox, sharp.rect.y + oy);
      if (covers(sharp.rect, view, size)) return;
    }
    // One request at a time; each answer paints again, which asks for more if still needed.
    if (loading.current !== undefined || failed === key) return;
    const rect = around(view, size, MAX_CANVAS_PIXELS);
    loading.current = key;
    void load(transform, crop, rect).then((bitmap) => landed(key, rect, bitmap));
  });

  // Scrolling and resizing repaint; a change of the screen's pixel density resizes the box.
  useEffect(() => {
    const box = scroller.current!;
    // Switched on from the stage (its button, or Z): the arrow keys move the view at once. Not
    // when another image is chosen from the list at 100 %, which keeps the focus in the list.
    const from = document.activeElement;
    if (from === document.body || box.closest('.flip-stage')?.contains(from)) box.focus({ preventScroll: true });
    const onScroll = () => paint();
    const resized = new ResizeObserver(() => {
      setDpr(devicePixelRatio);
      paint();
    });
    box.addEventListener('scroll', onScroll, { passive: true });
    resized.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      resized.disconnect();
      region.current?.bitmap.close();
      region.current = undefined;
    };
  }, []);

  useEffect(() => paint(), [arrivals]);

  // A new transform, crop or density: the same detail is brought to the view's centre.
  useLayoutEffect(() => {
    const box = scroller.current!;
    const p = center.current ? toResult(center.current, transform, c) : { x: size.width / 2, y: size.height / 2 };
    box.scrollLeft = p.x / dpr - box.clientWidth / 2;
    box.scrollTop = p.y / dpr - box.clientHeight / 2;
    paint();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- c and size follow from key; the rest is read when painting
  }, [key, dpr]);

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    // Touch pans natively; a mouse or a pen drags the picture along.
    if (e.pointerType === 'touch' || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY };
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault(); // no text selection
  }

  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    const from = drag.current;
    if (!from) return;
    e.currentTarget.scrollBy(from.x - e.clientX, from.y - e.clientY);
    drag.current = { x: e.clientX, y: e.clientY };
  }

  const stop = () => (drag.current = undefined);

  return (
    <>
      <canvas ref={canvas} className="flip-zoom-canvas" role="img" aria-label={label} />
      <div
        ref={scroller}
        className="flip-zoom"
        tabIndex={0}
        role="group"
        aria-label={t('zoom.pan')}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
      >
        <div style={{ width: size.width / dpr, height: size.height / dpr }} />
      </div>
      {failed === key && (
        <p className="flip-zoom-failed" role="alert">
          {t('zoom.failed')}
        </p>
      )}
    </>
  );
}
