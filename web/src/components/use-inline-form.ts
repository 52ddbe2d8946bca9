import { useCallback, useReducer, useState } from 'react';

/**
 * The record a page's inline form edits (undefined: a new one) and the form's `key`. A save or a
 * clear gives a new form: whatever was typed for one record (an added company's admin password) is
 * never left in the form for the next, and "Clear" clears while adding too, not only while editing.
 */
export function useInlineForm<T>() {
  const [editing, edit] = useState<T | undefined>(undefined);
  const [key, renew] = useReducer((n: number) => n + 1, 0);
  const done = useCallback(() => {
    edit(undefined);
    renew();
  }, []);
  return { editing, edit, key, done };
}
