import { useEffect, useState } from 'react';

/** SPEC 9: searches wait 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

export function useDebouncedValue<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
