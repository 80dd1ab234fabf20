// A native modal <dialog> shown while its component is mounted: showModal keeps focus inside,
// Esc closes it and the page behind is inert; unmounting closes it, and the browser returns
// focus to where it was.
import { useEffect, useRef, type RefObject } from 'react';

export function useModal(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);
  return ref;
}
