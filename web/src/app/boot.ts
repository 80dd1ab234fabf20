// What a prerendered page tells its script: the boot data, as JSON in the page (document.ts
// writes it). Apart from document.ts, whose imports (the head's scripts, the app's colours) the
// entry must not carry.

/** Data the client reads before hydrating; travels as JSON, never as inline script. */
export interface BootData {
  buildId: string;
  year: number;
  /** The page on screen (its locale and name). */
  route: import('../lib/site').Route;
  /**
   * The tag manager's container URL, or "" when none is configured: renderDocument writes the
   * site table's placeholder, which the server replaces at start-up (and names in its CSP).
   */
  tagManager?: string;
}

export const bootDataId = 'handy-data';
