// The flipper's keyboard shortcuts, written once: the key handler matches presses against this
// table, the legend lists it, and the buttons take their aria-keyshortcuts and titles from it.
import type { Operation } from '../../../lib/image/transform';

export type Shortcut = Operation | 'undo' | 'save' | 'zoom';

export interface KeyShortcut {
  action: Shortcut;
  /** The key, lower case, as KeyboardEvent.key gives it without Shift or Caps Lock. */
  key: string;
  /** Ctrl, or ⌘ on a Mac. */
  mod: boolean;
  /** Shift must be down (true), up (false), or either (undefined: caps lock and Shift+H still flip). */
  shift?: boolean;
}

/** In the legend's order. */
export const shortcuts: readonly KeyShortcut[] = [
  { action: 'flipH', key: 'h', mod: false },
  { action: 'flipV', key: 'v', mod: false },
  { action: 'rotateCW', key: 'r', mod: false, shift: false },
  { action: 'rotateCCW', key: 'r', mod: false, shift: true },
  { action: 'undo', key: 'z', mod: true, shift: false },
  { action: 'save', key: 's', mod: true },
  { action: 'zoom', key: 'z', mod: false },
];

/** What a key press means, if anything. Alt combinations are left to the browser. */
export function shortcutOf(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): Shortcut | undefined {
  if (e.altKey) return undefined;
  const key = e.key.toLowerCase();
  const mod = e.ctrlKey || e.metaKey;
  return shortcuts.find((s) => s.key === key && s.mod === mod && (s.shift === undefined || s.shift === e.shiftKey))?.action;
}

const shortcutOfAction = (action: Shortcut) => shortcuts.find((s) => s.action === action)!;

function spell(s: KeyShortcut, mod: string, join: string): string {
  return [s.mod && mod, s.shift && 'Shift', s.key.toUpperCase()].filter(Boolean).join(join);
}

/** For aria-keyshortcuts: "Control+Z", "Shift+R". */
export const ariaKeys = (action: Shortcut): string => spell(shortcutOfAction(action), 'Control', '+');

/** For a button's title: "Ctrl+Z", "Shift+R". */
export const titleKeys = (action: Shortcut): string => spell(shortcutOfAction(action), 'Ctrl', '+');

/** For the legend: "Ctrl/⌘ + Z", "Shift + R". */
export const legendKeys = (s: KeyShortcut): string => spell(s, 'Ctrl/⌘', ' + ');
