// The avatar as the server takes it (internal/account: a data:image/jpeg;base64 URL of at most
// limits.avatarMaxBytes): the cropper's square output, encoded as JPEG at the best quality that
// fits. Both limits are site.json's.
import { limits } from '../../lib/site';

/** The side of the avatar, in px. */
export const avatarSize = limits.avatarSize;
/** The server's limit on the data URL, in bytes (the URL is ASCII: one byte a character). */
export const maxAvatarBytes = limits.avatarMaxBytes;
const prefix = 'data:image/jpeg;base64,';
const qualities = [0.92, 0.85, 0.75, 0.6, 0.45, 0.3];

/** The first encoding, from the best quality down, that is a JPEG data URL within the limit. */
export function avatarDataUrl(encode: (quality: number) => string): string | undefined {
  for (const q of qualities) {
    const url = encode(q);
    if (url.startsWith(prefix) && url.length <= maxAvatarBytes) return url;
  }
  return undefined;
}

/**
 * The crop at exactly avatarSize × avatarSize (the cropper's output follows the crop's rounded
 * pixels, which a fixed 1:1 ratio keeps square), on white: JPEG has no transparency.
 */
export function avatarCanvas(crop: HTMLCanvasElement): HTMLCanvasElement {
  if (crop.width === avatarSize && crop.height === avatarSize) return crop;
  const out = document.createElement('canvas');
  out.width = out.height = avatarSize;
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, avatarSize, avatarSize);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(crop, 0, 0, avatarSize, avatarSize);
  return out;
}
