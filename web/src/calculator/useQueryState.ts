// A calculator's form state, mirrored in the query string so that a result can be shared as a
// link and survives a reload.
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { withPreferences, type ToolPreferences } from '../lib/preferences';
import type { QueryCodec } from '../lib/query';

// Browsers throttle history updates (Chrome allows about 100 in 10 s): typing writes the
// address once it pauses, not on every key.
const WRITE_DELAY_MS = 300;

/**
 * The state starts from the defaults, which is what the page was prerendered with, so that
 * hydration matches; it takes the query once the page is live, and writes itself back in place.
 * Returns the state, its setter and its query string (current, even before it is written).
 */
export function useQueryState<T>(
  search: string,
  replaceSearch: (search: string) => void,
  codec: QueryCodec<T>,
  /** Default query parameters (a signed-in visitor's preferences); a change re-reads the query. */
  defaults?: ToolPreferences,
): [T, Dispatch<SetStateAction<T>>, string] {
  const [state, setState] = useState(() => codec.decode(new URLSearchParams()));
  // The query string the state and the address agree on; undefined until the first sync.
  const synced = useRef<string | undefined>(undefined);
  const defaultsKey = JSON.stringify(defaults ?? {});
  const syncedDefaults = useRef(defaultsKey);

  useEffect(() => {
    if (search === synced.current && defaultsKey === syncedDefaults.current) return; // our own write coming back
    synced.current = search;
    syncedDefaults.current = defaultsKey;
    setState(codec.decode(withPreferences(new URLSearchParams(search), defaults)));
  }, [search, defaultsKey]); // eslint-disable-line react-hooks/exhaustive-deps -- the codec is read at sync time

  const encoded = codec.encode(state);
  useEffect(() => {
    if (synced.current === undefined || encoded === synced.current) return;
    const timer = setTimeout(() => {
      synced.current = encoded;
      replaceSearch(encoded);
    }, WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [encoded, replaceSearch]);

  return [state, setState, encoded];
}
