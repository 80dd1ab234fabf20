import { useEffect, useState } from 'react';

// Long enough for "1," to become "1,5" without a flash of "not a number" in between.
const TYPING_PAUSE_MS = 800;

/**
 * The error a field shows: it goes away at once when the input becomes valid, but appears only
 * after a pause in typing or when the visitor leaves the field. Returns it and the blur handler.
 */
export function useFieldError(error: string | undefined, value: string): [string | undefined, () => void] {
  const [shown, setShown] = useState<string | undefined>(undefined);
  // Valid again: forget what was shown, so that the next error waits for its pause too.
  if (!error && shown !== undefined) setShown(undefined);
  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setShown(error), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [error, value]);
  return [error && shown, () => setShown(error)];
}
