// The Network Information API where the browser has it (Chromium); elsewhere we assume a
// good connection.
interface NetworkInformation {
  effectiveType?: string;
  saveData?: boolean;
}

export function connection(): NetworkInformation {
  if (typeof navigator === 'undefined') return {};
  return (navigator as Navigator & { connection?: NetworkInformation }).connection ?? {};
}

/** Preloading is wasteful when the visitor saves data or is on a 2g connection. */
export function preloadAllowed(c: NetworkInformation = connection()): boolean {
  return !c.saveData && !(c.effectiveType ?? '').endsWith('2g');
}
