// An island: an interactive part of a prerendered page, hydrated as a React root of its own
// (app/islands/ holds every island's module, app/islands.ts schedules them). Everything around
// it is static HTML that React never touches. On the server the island leaves a placeholder that
// the prerender step fills with the island rendered alone, with the same providers and the
// same identifierPrefix as its hydration, so that the two always match (useId included).
import { createContext, useContext } from 'react';

/** When an island comes alive. Any of them also hydrates at once on a first click, key press
 * or focus inside it, and that event then takes effect (app/islands.ts). */
export type When = 'load' | 'idle' | 'visible';

/** The island modules' names: the files of app/islands/. */
export type IslandName = 'area' | 'speed' | 'flip' | 'theme' | 'history' | 'account';

/** What an island's props can be: they travel in the page as JSON. */
export type IslandProps = { [key: string]: string | number | boolean | null };

export interface IslandUse {
  name: IslandName;
  when: When;
  props: IslandProps;
}

/** Collects the islands a server render meets; the placeholder's content names its index. */
export const IslandCollector = createContext<IslandUse[] | null>(null);

/** The comment a placeholder holds until the prerender step puts the island's HTML there. */
export const islandMarker = (index: number) => `<!--island:${index}-->`;

export const islandAttr = 'data-island';

interface Props {
  name: IslandName;
  when: When;
  props?: IslandProps;
}

/** Renders an island's placeholder (server only: the client never renders the page around it). */
export function Island({ name, when, props = {} }: Props) {
  const found = useContext(IslandCollector);
  if (!found) throw new Error(`island ${name} rendered outside a server render`);
  const index = found.push({ name, when, props }) - 1;
  return (
    <div
      className="island"
      {...{ [islandAttr]: name }}
      data-when={when}
      data-props={JSON.stringify(props)}
      dangerouslySetInnerHTML={{ __html: islandMarker(index) }}
    />
  );
}
