// The colour theme: automatic (the device's setting, by CSS alone), or light or dark as the
// visitor chose with the switch, kept in localStorage. A chosen theme is applied by an inline
// script in <head> before the first paint (the CSP allows exactly its bytes, by hash), so a
// page never flashes in the other theme.

export const themeChoices = ['auto', 'light', 'dark'] as const;
export type ThemeChoice = (typeof themeChoices)[number];

/** The localStorage key (named in the privacy policy). */
export const themeKey = 'theme';

/** The inline <head> script: sets <html data-theme> from the stored choice. */
export const themeScript =
  `try{var t=localStorage.getItem(${JSON.stringify(themeKey)});` +
  `if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** The stored choice; automatic when there is none or storage is unavailable. */
export function storedTheme(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): ThemeChoice {
  const v = storage?.getItem(themeKey);
  return v === 'light' || v === 'dark' ? v : 'auto';
}

/** Applies a choice to the page and remembers it (automatic removes the key). */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement, storage = safeStorage()): void {
  if (choice === 'auto') {
    delete root.dataset.theme;
    storage?.removeItem(themeKey);
  } else {
    root.dataset.theme = choice;
    storage?.setItem(themeKey, choice);
  }
}

/** The next choice of the switch: automatic → light → dark → automatic. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return themeChoices[(themeChoices.indexOf(choice) + 1) % themeChoices.length];
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // disabled storage: the choice lasts for this page only
  }
}
