// The visit's choice of scope (every image, or the one on the stage), kept in sessionStorage.
import type { Scope } from './logic/workspace';

const scopeKey = 'handy:flip:scope';

export function storedScope(): Scope {
  try {
    return sessionStorage.getItem(scopeKey) === 'selected' ? 'selected' : 'all';
  } catch {
    return 'all'; // storage refused: the default
  }
}

export function storeScope(scope: Scope): void {
  try {
    sessionStorage.setItem(scopeKey, scope);
  } catch {
    // storage refused: the choice lasts as long as the page
  }
}
