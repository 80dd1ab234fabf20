// Draws the cropper's canvas: the turned image in its view, the dimmed outside, the rule of
// thirds, the crop box and its handles.
import { HANDLES, handlePoint, multiply, rotationMatrix, toScreen } from './geometry';
import type { CropState } from './cropState';
import type { LoadedImage } from './load';

/** Paints `s` on `canvas` at `dpr` device pixels per CSS pixel; only clears it without an image. */
export function paint(canvas: HTMLCanvasElement, img: LoadedImage | undefined, s: CropState, dpr: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!img) return;
  const { view: v, port } = s;
  ctx.imageSmoothingQuality = 'high';
  ctx.setTransform(...multiply([dpr * v.scale, 0, 0, dpr * v.scale, dpr * v.x, dpr * v.y], rotationMatrix(s.rotation, img)));
  ctx.drawImage(img.texture, 0, 0, img.width, img.height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const r = toScreen(s.crop, v);
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
  const accent = getComputedStyle(canvas).color; // the canvas's CSS colour is var(--accent)
  for (const h of HANDLES) {
    const q = handlePoint(r, h);
    const size = h.length === 2 ? 12 : 9;
    ctx.fillStyle = accent;
    ctx.fillRect(q.x - size / 2, q.y - size / 2, size, size);
    ctx.lineWidth = 1.5;
    ctx.strokeRect(q.x - size / 2, q.y - size / 2, size, size);
  }
}
