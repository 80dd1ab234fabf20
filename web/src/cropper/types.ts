import type { FitMode, Rotation } from './geometry';

export type { Rotation };
export type CropperState = 'idle' | 'loading' | 'loaded' | 'error';
export type CropperTool = 'zoomIn' | 'zoomOut' | 'rotateLeft' | 'rotateRight' | 'reset';

/** The crop in the displayed image's pixels: upright (EXIF applied), turned by `rotation`, at natural size. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: Rotation;
}

export interface CropperError {
  type: 'image-empty' | 'image-load';
  message: string;
}

/** Every string the cropper shows or announces, translated by the caller. */
export interface CropperLabels {
  /** The crop area's accessible name ("Crop area"). */
  region: string;
  /** How to use it ("Drag to move, drag an edge or corner to resize. Arrows move (Shift: faster), Alt + arrows resize, + and − zoom, [ and ] rotate."). */
  instructions: string;
  /** The crop's size, announced after each change: "{width} × {height} px", or a function. */
  size: string | ((width: number, height: number) => string);
  /** The buttons' group ("Crop tools"). */
  tools: string;
  zoomIn: string;
  zoomOut: string;
  rotateLeft: string;
  rotateRight: string;
  reset: string;
  loading: string;
  /** Shown when the image cannot be loaded. */
  error: string;
}

export interface CropperProps {
  /** An image: a Blob or File (best), or a same-origin URL. */
  src: string | Blob | undefined;
  /** Output scale: 1 = the crop's pixels in the processed image (natural size unless downscaled to maxImageSize). */
  outputSize?: number;
  /** A fixed output width in px (e.g. 256 for avatars); the height follows the crop. Wins over outputSize. */
  outputWidth?: number;
  outputType?: 'jpeg' | 'png' | 'webp';
  /** Encoder quality for jpeg and webp, 0..1. */
  quality?: number;
  /** Width and height of the fixed ratio. */
  ratio?: readonly [number, number];
  /** Whether the crop keeps `ratio`. */
  fixed?: boolean;
  /** Start with the largest crop of the ratio (otherwise 80 % of it), centred. */
  autoCrop?: boolean;
  /** The image is downscaled for display and output so its longer side is at most this. */
  maxImageSize?: number;
  /** The smallest crop side, in natural image pixels. */
  minCropSize?: number;
  /** Paints the output under the image (transparent images; JPEG gets white when this is transparent). */
  fillColor?: string;
  mode?: FitMode;
  /** Quarter turns clockwise; when this prop changes the cropper turns to it (its own buttons turn it too). */
  rotation?: Rotation;
  /** Which buttons to show, in order. */
  tools?: readonly CropperTool[];
  /** The crop, at most once per 16 ms. */
  onChange?: (crop: CropRect) => void;
  /** A live preview of the output (longer side ≤ 512 px), at most once per 16 ms. The canvas is reused: draw it at once. */
  onPreview?: (canvas: HTMLCanvasElement) => void;
  onError?: (error: CropperError) => void;
  onStateChange?: (state: CropperState) => void;
  labels: CropperLabels;
  className?: string;
}

export interface CropperHandle {
  /** The crop encoded as outputType; rejects (after onError 'image-empty') without a loaded image. */
  getCroppedBlob(): Promise<Blob>;
  /** The crop drawn at the output size; throws (after onError 'image-empty') without a loaded image. */
  getCroppedCanvas(): HTMLCanvasElement;
  /** A quarter turn: 1 clockwise, -1 counter-clockwise. */
  rotate(dir: 1 | -1): void;
  /** The initial crop, zoom and rotation. */
  reset(): void;
  /** Zooms the view about the crop's centre (1.2 = one step in). */
  zoom(factor: number): void;
  /** The current crop, or undefined without an image. */
  getCrop(): CropRect | undefined;
}

export const defaultCropperProps = {
  outputSize: 1,
  outputType: 'jpeg',
  quality: 0.92,
  ratio: [1, 1],
  fixed: true,
  autoCrop: false,
  maxImageSize: 2000,
  minCropSize: 10,
  fillColor: 'transparent',
  mode: 'contain',
  tools: ['zoomIn', 'zoomOut', 'rotateLeft', 'rotateRight', 'reset'],
} as const satisfies Partial<CropperProps>;

type Defaulted = keyof typeof defaultCropperProps;
export type ResolvedCropperProps = Omit<CropperProps, Defaulted> & Required<Pick<CropperProps, Defaulted>>;

/** The props with the defaults where they are undefined. */
export function withDefaults(props: CropperProps): ResolvedCropperProps {
  const out: Record<string, unknown> = { ...props };
  for (const [k, v] of Object.entries(defaultCropperProps)) out[k] ??= v;
  return out as ResolvedCropperProps;
}

export function sizeText(label: CropperLabels['size'], width: number, height: number): string {
  return typeof label === 'function' ? label(width, height) : label.replace('{width}', String(width)).replace('{height}', String(height));
}
