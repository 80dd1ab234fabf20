import { useEffect, useRef, type RefObject } from 'react';
import { canvasMatrix, outputSize, type Transform } from '../../lib/image/transform';
import type { Crop } from './protocol';

/** An image as the page draws it: its small preview, its full size, what is done to it. */
export interface Picture {
  image: CanvasImageSource & { width: number; height: number };
  /** The image's full upright size; the preview may be smaller. */
  width: number;
  height: number;
  transform: Transform;
  crop?: Crop;
}

interface Props extends Picture {
  label: string;
  className?: string;
  ref?: RefObject<HTMLCanvasElement | null>;
}

/** The result as it will be saved, drawn from the small preview: cheap enough for every click. */
export function Preview({ image, width, height, transform, crop, label, className = 'flip-preview', ref }: Props) {
  const own = useRef<HTMLCanvasElement>(null);
  const canvasRef = ref ?? own;
  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const scale = image.width / width; // preview pixels per image pixel
    const c = crop ?? { x: 0, y: 0, width, height };
    const w = Math.max(1, Math.round(c.width * scale));
    const h = Math.max(1, Math.round(c.height * scale));
    const size = outputSize(transform, w, h);
    canvas.width = size.width;
    canvas.height = size.height;
    ctx.setTransform(...canvasMatrix(transform, w, h));
    ctx.drawImage(image, c.x * scale, c.y * scale, c.width * scale, c.height * scale, 0, 0, w, h);
  }, [canvasRef, image, width, height, transform, crop]);
  return <canvas ref={canvasRef} className={className} role="img" aria-label={label} />;
}
