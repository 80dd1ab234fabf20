// Page modules are their own chunks (src/pages/{page name}.tsx), loaded before a page is
// shown, so a view never suspends.
import type { ComponentType } from 'react';
import type { Payload } from './payload';
import type { PageName } from './site';

export interface PageProps {
  payload: Payload;
  /** The query string of the page (`?a=1`, or ''); '' while the prerendered page hydrates. */
  search: string;
  /** Replaces the query string in place (no new history entry). */
  replaceSearch: (search: string) => void;
}

type PageModule = { default: ComponentType<PageProps> };

const modules = import.meta.glob<PageModule>('./pages/*.tsx');
const loaded = new Map<PageName, ComponentType<PageProps>>();

/** Manifest key of a page's chunk, for the prerender step. */
export const pageChunk = (page: PageName) => `src/pages/${page}.tsx`;

export async function loadPage(page: PageName): Promise<ComponentType<PageProps>> {
  const cached = loaded.get(page);
  if (cached) return cached;
  const load = modules[`./pages/${page}.tsx`];
  if (!load) throw new Error(`no module for page ${page}`);
  const component = (await load()).default;
  loaded.set(page, component);
  return component;
}

/** The component of a page already loaded by loadPage. */
export function loadedPage(page: PageName): ComponentType<PageProps> {
  const component = loaded.get(page);
  if (!component) throw new Error(`page ${page} shown before it was loaded`);
  return component;
}
