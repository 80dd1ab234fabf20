// What a page module is: the contract every page implements, a tool's features/{feature}/page.tsx
// and each of app/pages/{page name}.tsx, and that the app's page registry loads. A page module
// is rendered by the prerender step only: the visitor gets its HTML, and the client hydrates
// none of it but the islands it places (page/Island.tsx).
import type { ComponentType } from 'react';
import type { Payload } from '../router/payload';

export interface PageProps {
  payload: Payload;
}

/** A page module: its page, as the default export. */
export interface PageModule {
  default: ComponentType<PageProps>;
}
