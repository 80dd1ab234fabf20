// Everything imperative about one cropper: the loaded image, the state (cropState.ts) and the
// pointers down, painting once a frame, reporting the crop (throttled) and announcing its size.
import {
  begun,
  conformed,
  cropRect,
  cursorOf,
  dragged,
  emptyCropState,
  fitted,
  gestureOf,
  nudged,
  rotated,
  shownSize,
  zoomed,
  type CropRules,
  type CropState,
  type Gesture,
} from './cropState';
import { fitWithin, keyStep, outputSizeOf, ratioOf, roundRect, wheelFactor, type Point, type Rotation } from './geometry';
import { keyAction } from './keys';
import { drawCrop, release, type LoadedImage } from './load';
import { paint } from './paint';
import { throttle } from './throttle';
import { sizeText, type CropRect, type ResolvedCropperProps } from './types';

type Pointer = Pick<PointerEvent, 'pointerId' | 'pointerType' | 'clientX' | 'clientY'>;

const PREVIEW_MAX = 512;

export type Controller = ReturnType<typeof controller>;

/**
 * Made once per cropper. It holds the latest props (`update`, after each render) and its two
 * elements (callback refs), so that nothing reads a React ref in render.
 */
export function controller(initial: ResolvedCropperProps) {
  let latest = initial;
  let canvasEl: HTMLCanvasElement | null = null;
  let liveEl: HTMLElement | null = null;
  const props = () => latest;
  const canvas = () => canvasEl;
  const live = () => liveEl;
  let img: LoadedImage | undefined;
  let s: CropState = emptyCropState;
  let dpr = 1;
  let gesture: Gesture | undefined;
  const pointers = new Map<number, Point>();
  let frame = 0;
  let announceTimer: ReturnType<typeof setTimeout> | undefined;
  let previewCanvas: HTMLCanvasElement | undefined;

  const rules = (): CropRules => ({ ratio: ratioOf(props().fixed, props().ratio), min: props().minCropSize, mode: props().mode });
  const current = (): CropRect | undefined => img && cropRect(s);

  const emit = throttle(() => {
    const c = current();
    if (c) props().onChange?.(c);
  });
  const emitPreview = throttle(() => {
    const p = props();
    if (!img || !p.onPreview) return;
    const r = roundRect(s.crop, shownSize(s));
    const out = fitWithin(outputSizeOf(r, { ...p, processScale: img.scale }), PREVIEW_MAX);
    previewCanvas = drawCrop(img, s.rotation, r, out, p.fillColor, p.outputType, previewCanvas);
    p.onPreview(previewCanvas);
  });

  function repaint() {
    frame = 0;
    const c = canvas();
    if (c) paint(c, img, s, dpr);
  }

  const redraw = () => void (frame ||= requestAnimationFrame(repaint));

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
    s = begun(s, { width: img.width, height: img.height }, props().rotation ?? 0, props().autoCrop, rules());
    changed();
  }

  function rotate(dir: 1 | -1) {
    if (!img) return;
    s = rotated(s, dir, rules());
    changed();
  }

  function zoomBy(factor: number, at?: Point) {
    if (!img) return;
    s = zoomed(s, factor, at);
    redraw();
  }

  function local(e: Pick<PointerEvent, 'clientX' | 'clientY'>): Point {
    const b = canvas()!.getBoundingClientRect();
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  }

  /** The gesture of the pointers now down (again when one is added or lifted). */
  const start = (type: string) => void (gesture = gestureOf(s, [...pointers.values()], type));

  function cursor(at?: Point) {
    const c = canvas();
    if (c) c.dataset.cursor = img ? cursorOf(s, gesture, at) : '';
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
      const port = { width: c.clientWidth, height: c.clientHeight };
      if (port.width === s.port.width && port.height === s.port.height && scale === dpr) return;
      [s, dpr] = [{ ...s, port }, scale];
      c.width = Math.max(1, Math.round(port.width * dpr));
      c.height = Math.max(1, Math.round(port.height * dpr));
      if (img) s = fitted(s, rules());
      repaint();
    },
    conform() {
      if (!img) return;
      s = conformed(s, rules());
      changed();
    },
    refit() {
      if (!img) return;
      s = fitted(s, rules());
      redraw();
    },
    rotate,
    rotateTo(target: Rotation) {
      const turns = (target - s.rotation + 4) % 4;
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
      const r = roundRect(s.crop, shownSize(s));
      return drawCrop(img, s.rotation, r, outputSizeOf(r, { ...p, processScale: img.scale }), p.fillColor, p.outputType);
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
      s = dragged(s, g, [...pointers.values()], at, rules());
      if (g.kind === 'pinch' || g.kind === 'pan') redraw();
      else changed();
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
      const a = img && keyAction(e, keyStep(s.view.scale, false), keyStep(s.view.scale, true));
      if (!a) return;
      e.preventDefault();
      if (a.kind === 'zoom') return zoomBy(a.factor);
      if (a.kind === 'rotate') return rotate(a.dir);
      s = nudged(s, a, rules());
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
