export { Cropper } from './Cropper';
export { defaultCropperProps } from './types';
export type {
  CropperError,
  CropperHandle,
  CropperLabels,
  CropperProps,
  CropperState,
  CropperTool,
  CropRect,
  Rotation,
} from './types';
export { cropToUpright, ZOOM_COEFFICIENT } from './geometry';
export type { Rect, Size } from './geometry';
