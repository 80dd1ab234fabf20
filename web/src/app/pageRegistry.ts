// Page modules (page/module.ts), which only the prerender step renders: the browser gets their
// HTML and hydrates only the islands in it. A tool's page module is its feature's `page.tsx`
// (features/{feature}/page.tsx); the other pages are app/pages/{page name}.tsx.
import type { ComponentType } from 'react';
import { pageFeatures, type PageName } from '../lib/site';
import type { PageModule, PageProps } from '../page/module';

const modules = import.meta.glob<PageModule>(['./pages/*.tsx', '../features/*/page.tsx']);
const loaded = new Map<PageName, ComponentType<PageProps>>();

/** A page module's path under src/. */
const modulePath = (page: PageName) => {
  const feature = pageFeatures[page];
  return feature ? `features/${feature.name}/page.tsx` : `app/pages/${page}.tsx`;
};

/** The glob's key of a path under src/ (Vite writes this folder's own files as ./). */
const globKey = (path: string) => (path.startsWith('app/') ? `./${path.slice(4)}` : `../${path}`);

export async function loadPage(page: PageName): Promise<ComponentType<PageProps>> {
  const cached = loaded.get(page);
  if (cached) return cached;
  const load = modules[globKey(modulePath(page))];
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
