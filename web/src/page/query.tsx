// The page's query string as an island reads it: the view's search ('' while the prerendered
// page hydrates, then the address's) and a way to replace it in place. The island's root
// provides it (app/IslandRoot.tsx); on the server it is always '' and cannot change.
import { createContext, useContext } from 'react';

export interface PageQuery {
  search: string;
  /** Replaces the query string in place (no new history entry), while this view is on screen. */
  replaceSearch: (search: string) => void;
}

const fixed: PageQuery = { search: '', replaceSearch: () => {} };

export const PageQueryContext = createContext<PageQuery>(fixed);

export const usePageQuery = () => useContext(PageQueryContext);
