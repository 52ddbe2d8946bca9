import { type RefObject, type UIEvent, useEffect, useRef, useState } from 'react';

/** Pages an infinite list loads by itself while they do not fill its box; past them a button asks. */
export const AUTO_FILL_PAGES = 5;

/**
 * What an infinite list does about its next page when no scroll can ask for it. Lists load on a
 * scroll near their end (SPEC 9), but a list whose rows end inside its box cannot scroll: a tall
 * screen holds a whole page, and a page may come back short with more to read (a filter that spent
 * its read budget, a busy tenant's sharded ticket lists). Such a list (`spareBelowPx`, the rows
 * below the box's bottom, within the next-page distance) loads the next page itself, up to
 * AUTO_FILL_PAGES in a row, then offers a button: a rare filter over a large inbox must not page
 * through it unasked.
 */
export function shortListAction(state: {
  hasMore: boolean;
  loading: boolean;
  /** Pages this list loaded by itself in a row. */
  autoLoaded: number;
  spareBelowPx: number;
  nextPagePx: number;
}): 'load' | 'button' | 'none' {
  if (!state.hasMore || state.loading || state.spareBelowPx > state.nextPagePx) return 'none';
  return state.autoLoaded < AUTO_FILL_PAGES ? 'load' : 'button';
}

/**
 * An infinite list's paging in its scrolling box `box`: the next page on a scroll near the end
 * (onScroll), and while the rows do not reach past the box's bottom (shortListAction), with whether
 * to show a Load more button. `rows` is how many rows the list shows: fewer than
 * before (a new search) starts the count of pages loaded unasked again, as does a scroll (onScroll).
 */
export function useFillBox(
  box: RefObject<HTMLElement | null>,
  list: { rows: number; hasMore: boolean; loading: boolean; load: () => void; nextPagePx: number },
): { showButton: boolean; onScroll: (event: UIEvent<HTMLElement>) => void } {
  const autoLoaded = useRef(0);
  const lastRows = useRef(0);
  // The latest loader, without making the effect run on every render of a caller's inline arrow.
  const load = useRef(list.load);
  load.current = list.load;
  const [showButton, setShowButton] = useState(false);
  const { rows, hasMore, loading, nextPagePx } = list;
  useEffect(() => {
    if (rows < lastRows.current) autoLoaded.current = 0;
    lastRows.current = rows;
    const element = box.current;
    const action = element
      ? shortListAction({
          hasMore,
          loading,
          autoLoaded: autoLoaded.current,
          spareBelowPx: element.scrollHeight - element.scrollTop - element.clientHeight,
          nextPagePx,
        })
      : 'none';
    setShowButton(action === 'button');
    if (action === 'load') {
      autoLoaded.current += 1;
      load.current();
    }
  }, [box, rows, hasMore, loading, nextPagePx]);
  // SPEC 9: a scroll to within the next-page distance of the end asks for the next page.
  const onScroll = (event: UIEvent<HTMLElement>) => {
    autoLoaded.current = 0;
    const element = event.currentTarget;
    if (hasMore && !loading && element.scrollHeight - element.scrollTop - element.clientHeight <= nextPagePx) load.current();
  };
  return { showButton, onScroll };
}
