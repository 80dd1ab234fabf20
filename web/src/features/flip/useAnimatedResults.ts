// The animated results the visitor saved, kept as object URLs so that the stage plays the file
// itself (an <img> plays GIF, APNG and WebP animation), for as long as the image is unchanged.
// A flip, a turn or a crop after it shows the still preview again; the URL goes with the image.
import { useEffect, useRef, useState } from 'react';
import type { Transform } from '../../lib/image/transform';
import type { Crop } from './protocol';

interface Saved {
  url: string;
  transform: Transform;
  crop?: Crop;
}

interface Shown {
  key: number;
  transform: Transform;
  crop?: Crop;
}

export function useAnimatedResults() {
  const [saved, setSaved] = useState<ReadonlyMap<number, Saved>>(new Map());
  // Every URL made and not yet revoked, for when the page goes.
  const urls = useRef(new Map<number, string>());
  useEffect(() => {
    const made = urls.current;
    return () => made.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const drop = (key: number) => {
    const url = urls.current.get(key);
    if (url) URL.revokeObjectURL(url);
    urls.current.delete(key);
  };

  return {
    keep(item: Shown, blob: Blob) {
      drop(item.key);
      const url = URL.createObjectURL(blob);
      urls.current.set(item.key, url);
      setSaved((m) => new Map(m).set(item.key, { url, transform: item.transform, crop: item.crop }));
    },
    /** The visitor removed these images. */
    forget(keys: readonly number[]) {
      keys.forEach(drop);
      setSaved((m) => new Map([...m].filter(([k]) => !keys.includes(k))));
    },
    /** The saved animation of the item as it is now, if there is one. */
    url(item: Shown): string | undefined {
      const s = saved.get(item.key);
      return s && s.transform === item.transform && sameCrop(s.crop, item.crop) ? s.url : undefined;
    },
  };
}

function sameCrop(a: Crop | undefined, b: Crop | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);
}
