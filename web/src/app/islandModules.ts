// Every island's module: app/islands/{name}.tsx, each its own chunk, loaded only on the pages
// that place it. The prerender step loads them all before rendering; the browser loads each
// when its island is about to hydrate.
import type { ComponentType } from 'react';
import type { IslandName, IslandProps } from '../page/Island';

type Island = ComponentType<IslandProps>;

const modules = import.meta.glob<{ default: Island }>('./islands/*.tsx');
const loaded = new Map<IslandName, Island>();

/** The prefix of an island's ids (React's useId): its name, so no two islands share an id. */
export const idPrefix = (name: IslandName) => `${name}-`;

/** The manifest key of an island's chunk, for the prerender step's preload links. */
export const islandChunk = (name: IslandName) => `src/app/islands/${name}.tsx`;

export async function loadIsland(name: IslandName): Promise<Island> {
  const cached = loaded.get(name);
  if (cached) return cached;
  const load = modules[`./islands/${name}.tsx`];
  if (!load) throw new Error(`no island named ${name} (app/islands/${name}.tsx)`);
  const component = (await load()).default;
  loaded.set(name, component);
  return component;
}

/** An island's component already loaded by loadIsland. */
export function loadedIsland(name: IslandName): Island {
  const component = loaded.get(name);
  if (!component) throw new Error(`island ${name} rendered before it was loaded`);
  return component;
}

/** Every island's name, for the prerender step. */
export const islandNames = Object.keys(modules).map((k) => k.slice('./islands/'.length, -'.tsx'.length) as IslandName);
