import type { KeyboardEvent } from 'react';

/**
 * The keys of a suggestion list shown above the text field (a note's `@` mentions, the `/` quick
 * replies), as chat apps have them: the arrows move the highlight round the list, Enter or Tab picks
 * the highlighted option, Escape closes the list. True when the key was the list's (its default is
 * then prevented: Enter does not send the half-typed text).
 */
export function suggestionKey(
  event: KeyboardEvent,
  count: number,
  actions: { move: (step: 1 | -1) => void; pick: () => void; close: () => void },
): boolean {
  if (count === 0 || event.nativeEvent.isComposing) return false;
  if (event.key === 'ArrowDown') actions.move(1);
  else if (event.key === 'ArrowUp') actions.move(-1);
  else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') actions.pick();
  else if (event.key === 'Escape') actions.close();
  else return false;
  event.preventDefault();
  return true;
}

/** The highlight after a move of `step` in a list of `count` options, round the ends. */
export const movedHighlight = (current: number, step: 1 | -1, count: number) => (current + step + count) % count;
