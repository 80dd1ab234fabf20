// What a page module is: the contract every page implements, a tool's features/{feature}/page.tsx
// and each of app/pages/{page name}.tsx, and that the app's page registry loads.
import type { ComponentType } from 'react';
import type { Payload } from '../router/payload';

export interface PageProps {
  payload: Payload;
  /** The query string of the page (`?a=1`, or ''); '' while the prerendered page hydrates. */
  search: string;
  /** Replaces the query string in place (no new history entry). */
  replaceSearch: (search: string) => void;
}

/** A page module: its page, as the default export. */
export interface PageModule {
  default: ComponentType<PageProps>;
}
