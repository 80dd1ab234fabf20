import { ZOOM_STEP, type Handle } from './geometry';

export type KeyAction =
  | { kind: 'move'; dx: number; dy: number }
  | { kind: 'resize'; handle: Handle; dx: number; dy: number }
  | { kind: 'zoom'; factor: number }
  | { kind: 'rotate'; dir: 1 | -1 };

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The crop box's keys: arrows move by `step` (Shift: the big step); Alt + arrows resize
 * (Right/Down grow, Left/Up shrink); + and − zoom; [ and ] rotate. Ctrl/Cmd combinations, and
 * R (the page's rotate shortcut), are left to the page and the browser.
 */
export function keyAction(
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'>,
  step: number,
  bigStep = step * 10,
): KeyAction | undefined {
  if (e.ctrlKey || e.metaKey) return undefined;
  const arrow = ARROWS[e.key];
  if (arrow) {
    const s = e.shiftKey ? bigStep : step;
    const [dx, dy] = [arrow[0] * s, arrow[1] * s];
    return e.altKey ? { kind: 'resize', handle: dx ? 'e' : 's', dx, dy } : { kind: 'move', dx, dy };
  }
  if (e.altKey) return undefined;
  if (e.key === '+' || e.key === '=') return { kind: 'zoom', factor: ZOOM_STEP };
  if (e.key === '-' || e.key === '_') return { kind: 'zoom', factor: 1 / ZOOM_STEP };
  if (e.key === '[') return { kind: 'rotate', dir: -1 };
  if (e.key === ']') return { kind: 'rotate', dir: 1 };
  return undefined;
}
