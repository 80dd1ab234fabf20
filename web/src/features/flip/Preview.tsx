import { useEffect, useRef } from 'react';
import { canvasMatrix, outputSize, type Transform } from '../../lib/image/transform';
import type { Crop } from './protocol';

interface Props {
  image: CanvasImageSource & { width: number; height: number };
  /** The image's full upright size; the preview may be smaller. */
  width: number;
  height: number;
  transform: Transform;
  crop?: Crop;
  label: string;
}

/** The result as it will be saved, drawn from the small preview: cheap enough for every click. */
export function Preview({ image, width, height, transform, crop, label }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
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
  }, [image, width, height, transform, crop]);
  return <canvas ref={ref} className="flip-preview" role="img" aria-label={label} />;
}
