// The image cropper: one canvas draws the image, the dimmed outside, the crop box and its
// handles; pointer, wheel and keys act on that canvas. No style attribute, on the server or after.
import { useEffect, useId, useImperativeHandle, useLayoutEffect, useState, type Ref } from 'react';
import {
  clampView,
  conformCrop,
  CURSORS,
  fitView,
  fitWithin,
  HANDLES,
  handlePoint,
  hitTest,
  initialCrop,
  keyStep,
  moveCrop,
  multiply,
  outputSizeOf,
  pinchView,
  ratioOf,
  resizeCrop,
  revealRect,
  rotatedSize,
  rotateRect,
  rotationMatrix,
  roundRect,
  toScreen,
  wheelFactor,
  zoomLimits,
  zoomView,
  ZOOM_STEP,
  type Handle,
  type Point,
  type Rect,
  type Rotation,
  type Size,
  type View,
} from './geometry';
import { keyAction } from './keys';
import { drawCrop, loadImage, release, toBlob, type LoadedImage } from './load';
import { throttle } from './throttle';
import {
  sizeText,
  withDefaults,
  type CropperHandle,
  type CropperProps,
  type CropperState,
  type CropperTool,
  type CropRect,
  type ResolvedCropperProps,
} from './types';

type Gesture =
  | { kind: 'move' | Handle; from: Point; crop: Rect }
  | { kind: 'pan'; from: Point; view: View }
  | { kind: 'pinch'; from: Point; dist: number; view: View };

type Pointer = Pick<PointerEvent, 'pointerId' | 'pointerType' | 'clientX' | 'clientY'>;

const PREVIEW_MAX = 512;
const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y) || 1;

const ICONS: Record<CropperTool, string> = {
  zoomIn: 'M5 12h14M12 5v14',
  zoomOut: 'M5 12h14',
  rotateLeft: 'M2 4v6h6M3.5 15A9 9 0 1 0 5.6 5.6L2 10',
  rotateRight: 'M22 4v6h-6M20.5 15A9 9 0 1 1 18.4 5.6L22 10',
  reset: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
};

/**
 * Everything imperative, made once per cropper. It holds the latest props (`update`, after each
 * render) and its two elements (callback refs), so that nothing reads a React ref in render.
 */
function controller(initial: ResolvedCropperProps) {
  let latest = initial;
  let canvasEl: HTMLCanvasElement | null = null;
  let liveEl: HTMLElement | null = null;
  const props = () => latest;
  const canvas = () => canvasEl;
  const live = () => liveEl;
  let img: LoadedImage | undefined;
  let rotation: Rotation = 0;
  let crop: Rect = { x: 0, y: 0, width: 1, height: 1 };
  let view: View = { scale: 1, x: 0, y: 0 };
  let port: Size = { width: 0, height: 0 };
  let dpr = 1;
  let gesture: Gesture | undefined;
  const pointers = new Map<number, Point>();
  let frame = 0;
  let announceTimer: ReturnType<typeof setTimeout> | undefined;
  let previewCanvas: HTMLCanvasElement | undefined;

  const ratio = () => ratioOf(props().fixed, props().ratio);
  const min = () => props().minCropSize;
  const size = () => rotatedSize(img!, rotation);
  const fit = () => void (view = fitView(size(), port, props().mode));
  const settle = (v: View) => void (view = clampView(v, size(), port));
  const current = (): CropRect | undefined => img && { ...roundRect(crop, size()), rotation };

  const emit = throttle(() => {
    const c = current();
    if (c) props().onChange?.(c);
  });
  const emitPreview = throttle(() => {
    const p = props();
    if (!img || !p.onPreview) return;
    const r = roundRect(crop, size());
    const out = fitWithin(outputSizeOf(r, { ...p, processScale: img.scale }), PREVIEW_MAX);
    previewCanvas = drawCrop(img, rotation, r, out, p.fillColor, p.outputType, previewCanvas);
    p.onPreview(previewCanvas);
  });

  function paint() {
    frame = 0;
    const c = canvas();
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    if (!img) return;
    const v = view;
    ctx.imageSmoothingQuality = 'high';
    ctx.setTransform(...multiply([dpr * v.scale, 0, 0, dpr * v.scale, dpr * v.x, dpr * v.y], rotationMatrix(rotation, img)));
    ctx.drawImage(img.texture, 0, 0, img.width, img.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const r = toScreen(crop, v);
    ctx.fillStyle = 'rgba(0,0,0,.55)';
    ctx.beginPath();
    ctx.rect(0, 0, port.width, port.height);
    ctx.rect(r.x, r.y, r.width, r.height);
    ctx.fill('evenodd');
    ctx.beginPath();
    for (const k of [1 / 3, 2 / 3]) {
      ctx.moveTo(r.x + r.width * k, r.y);
      ctx.lineTo(r.x + r.width * k, r.y + r.height);
      ctx.moveTo(r.x, r.y + r.height * k);
      ctx.lineTo(r.x + r.width, r.y + r.height * k);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(255,255,255,.45)';
    ctx.stroke();
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(0,0,0,.6)';
    ctx.strokeRect(r.x, r.y, r.width, r.height);
    ctx.lineWidth = 1;
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(r.x, r.y, r.width, r.height);
    const accent = getComputedStyle(c).color; // the canvas's CSS colour is var(--accent)
    for (const h of HANDLES) {
      const q = handlePoint(r, h);
      const s = h.length === 2 ? 12 : 9;
      ctx.fillStyle = accent;
      ctx.fillRect(q.x - s / 2, q.y - s / 2, s, s);
      ctx.lineWidth = 1.5;
      ctx.strokeRect(q.x - s / 2, q.y - s / 2, s, s);
    }
  }

  const redraw = () => void (frame ||= requestAnimationFrame(paint));

  function announce() {
    const el = live();
    const c = current();
    if (el) el.textContent = c ? sizeText(props().labels.size, c.width, c.height) : '';
  }

  /** After the crop changed: draw, report, announce. */
  function changed() {
    redraw();
    emit();
    emitPreview();
    clearTimeout(announceTimer);
    announceTimer = setTimeout(announce, 400);
  }

  function begin() {
    if (!img) return;
    rotation = props().rotation ?? 0;
    crop = initialCrop(size(), min(), ratio(), props().autoCrop);
    fit();
    changed();
  }

  function rotate(dir: 1 | -1) {
    if (!img) return;
    const before = size();
    crop = conformCrop(rotateRect(crop, before, dir), rotatedSize(before, 1), min(), ratio());
    rotation = ((rotation + dir + 4) % 4) as Rotation;
    fit();
    changed();
  }

  function zoomBy(factor: number, at?: Point) {
    if (!img) return;
    const r = toScreen(crop, view);
    settle(zoomView(view, factor, at ?? { x: r.x + r.width / 2, y: r.y + r.height / 2 }, zoomLimits(size(), port)));
    redraw();
  }

  function local(e: Pick<PointerEvent, 'clientX' | 'clientY'>): Point {
    const b = canvas()!.getBoundingClientRect();
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  }

  /** The gesture of the pointers now down (again when one is added or lifted). */
  function start(type: string) {
    const [a, b] = [...pointers.values()];
    if (!a) gesture = undefined;
    else if (b) gesture = { kind: 'pinch', from: mid(a, b), dist: dist(a, b), view };
    else {
      const hit = hitTest(toScreen(crop, view), a, type === 'mouse' ? 8 : 22);
      gesture = hit ? { kind: hit, from: a, crop } : { kind: 'pan', from: a, view };
    }
  }

  function cursor(at?: Point) {
    const c = canvas();
    if (!c) return;
    const g = gesture;
    const hit = g ? g.kind : at && hitTest(toScreen(crop, view), at, 8);
    c.dataset.cursor = !img ? '' : hit === 'pan' ? 'grabbing' : hit && hit !== 'pinch' ? CURSORS[hit] : 'grab';
  }

  return {
    current,
    setImage(next: LoadedImage | undefined) {
      if (img && img !== next) release(img.texture);
      img = next;
      pointers.clear();
      gesture = undefined;
      if (img) begin();
      else {
        redraw();
        announce();
      }
    },
    resize() {
      const c = canvas();
      if (!c) return;
      const scale = globalThis.devicePixelRatio || 1;
      const next = { width: c.clientWidth, height: c.clientHeight };
      if (next.width === port.width && next.height === port.height && scale === dpr) return;
      [port, dpr] = [next, scale];
      c.width = Math.max(1, Math.round(next.width * dpr));
      c.height = Math.max(1, Math.round(next.height * dpr));
      if (img) fit();
      paint();
    },
    conform() {
      if (!img) return;
      crop = conformCrop(crop, size(), min(), ratio());
      changed();
    },
    refit() {
      if (!img) return;
      fit();
      redraw();
    },
    rotate,
    rotateTo(target: Rotation) {
      const turns = (target - rotation + 4) % 4;
      if (turns === 3) rotate(-1);
      else for (let i = 0; i < turns; i++) rotate(1);
    },
    reset: begin,
    zoomBy,
    update(p: ResolvedCropperProps) {
      latest = p;
    },
    props,
    attachCanvas: (el: HTMLCanvasElement | null) => {
      canvasEl = el;
    },
    /** The canvas element, once rendered. */
    element: canvas,
    attachLive: (el: HTMLElement | null) => {
      liveEl = el;
    },
    canvas(): HTMLCanvasElement {
      const p = props();
      if (!img) {
        const message = 'There is no image to crop';
        p.onError?.({ type: 'image-empty', message });
        throw new Error(message);
      }
      const r = roundRect(crop, size());
      return drawCrop(img, rotation, r, outputSizeOf(r, { ...p, processScale: img.scale }), p.fillColor, p.outputType);
    },
    down(e: Pointer & { button: number }) {
      const c = canvas();
      if (!img || !c || (e.pointerType === 'mouse' && e.button !== 0)) return;
      c.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, local(e));
      start(e.pointerType);
      cursor();
    },
    move(e: Pointer) {
      if (!img) return;
      const at = local(e);
      const g = gesture;
      if (!pointers.has(e.pointerId) || !g) return void (e.pointerType === 'mouse' && cursor(at));
      pointers.set(e.pointerId, at);
      if (g.kind === 'pinch') {
        const [a, b] = [...pointers.values()];
        settle(pinchView(g.view, g.from, mid(a, b), dist(a, b) / g.dist, zoomLimits(size(), port)));
        return redraw();
      }
      if (g.kind === 'pan') {
        settle({ scale: g.view.scale, x: g.view.x + at.x - g.from.x, y: g.view.y + at.y - g.from.y });
        return redraw();
      }
      const dx = (at.x - g.from.x) / view.scale;
      const dy = (at.y - g.from.y) / view.scale;
      crop = g.kind === 'move' ? moveCrop(g.crop, dx, dy, size()) : resizeCrop(g.crop, g.kind, dx, dy, size(), min(), ratio());
      changed();
    },
    up(e: Pointer) {
      if (!pointers.delete(e.pointerId)) return;
      start(e.pointerType);
      cursor(local(e));
    },
    wheel(e: WheelEvent) {
      if (!img) return;
      e.preventDefault();
      zoomBy(wheelFactor(e.deltaY, e.deltaMode), local(e));
    },
    key(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey' | 'preventDefault'>) {
      const a = img && keyAction(e, keyStep(view.scale, false), keyStep(view.scale, true));
      if (!a) return;
      e.preventDefault();
      if (a.kind === 'zoom') return zoomBy(a.factor);
      if (a.kind === 'rotate') return rotate(a.dir);
      crop = a.kind === 'move' ? moveCrop(crop, a.dx, a.dy, size()) : resizeCrop(crop, a.handle, a.dx, a.dy, size(), min(), ratio());
      settle(revealRect(view, crop, port));
      changed();
    },
    dispose() {
      emit.cancel();
      emitPreview.cancel();
      cancelAnimationFrame(frame);
      frame = 0;
      clearTimeout(announceTimer);
    },
  };
}

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
      {p.tools.length > 0 && (
        <div className="cropper-tools" role="group" aria-label={labels.tools}>
          {p.tools.map((t) => (
            <button key={t} type="button" className="cropper-button" data-tool={t} aria-label={labels[t]} title={labels[t]} disabled={!loaded} onClick={act[t]}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d={ICONS[t]} />
              </svg>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
