import { useEffect, useEffectEvent } from 'react';
import { shortcutOf, type Shortcut } from './logic/shortcuts';

/** Keys typed into a field are the field's, not shortcuts. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * Calls `run` for the page's shortcuts while `enabled`. The listener is attached once, on the
 * first mount, and reads the latest values, so a key pressed as soon as an image appears counts.
 */
export function useShortcuts(enabled: boolean, run: (s: Shortcut) => void): void {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (!enabled || e.defaultPrevented || typing(e.target)) return;
    const s = shortcutOf(e);
    if (!s) return;
    e.preventDefault(); // Ctrl+S would save the page itself
    run(s);
  });
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
