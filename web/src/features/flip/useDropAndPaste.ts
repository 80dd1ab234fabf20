import { useEffect, useEffectEvent } from 'react';

const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

/**
 * Files dropped anywhere on the page, or pasted, go to `onFiles`; `onDragging` hears whether
 * files are being dragged over the page. The listeners are attached once and call the latest
 * callbacks.
 */
export function useDropAndPaste(onFiles: (files: File[]) => void, onDragging: (dragging: boolean) => void): void {
  const files = useEffectEvent(onFiles);
  const dragging = useEffectEvent(onDragging);
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!e.relatedTarget) dragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragging(false);
      files([...(e.dataTransfer?.files ?? [])]);
    };
    const paste = (e: ClipboardEvent) => {
      const pasted = [...(e.clipboardData?.files ?? [])];
      if (pasted.length === 0) return;
      e.preventDefault();
      files(pasted);
    };
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
      document.removeEventListener('paste', paste);
    };
  }, []);
}
