/**
 * The keys of the composer's suggestion lists (quick replies on '/', mentions in a note): the arrows
 * move round the list, Enter or Tab picks, Escape closes, and those keys never reach the text field
 * (Enter would send the half-typed '/hor' to the customer). Shift+Enter, a composition in progress
 * and an empty list leave the key to the field.
 */
import type { KeyboardEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { movedHighlight, suggestionKey } from '../src/features/messages/api/suggestion-keys.ts';

function press(key: string, count: number, extra: { shiftKey?: boolean; isComposing?: boolean } = {}) {
  const done: string[] = [];
  let prevented = false;
  const event = {
    key,
    shiftKey: extra.shiftKey ?? false,
    nativeEvent: { isComposing: extra.isComposing ?? false },
    preventDefault: () => {
      prevented = true;
    },
  } as unknown as KeyboardEvent;
  const taken = suggestionKey(event, count, {
    move: (step) => done.push(`move ${step}`),
    pick: () => done.push('pick'),
    close: () => done.push('close'),
  });
  return { taken, prevented, done };
}

describe('the suggestion list keys', () => {
  it('moves with the arrows, picks with Enter or Tab, closes with Escape, and keeps those keys from the field', () => {
    expect(press('ArrowDown', 3)).toEqual({ taken: true, prevented: true, done: ['move 1'] });
    expect(press('ArrowUp', 3)).toEqual({ taken: true, prevented: true, done: ['move -1'] });
    expect(press('Enter', 3)).toEqual({ taken: true, prevented: true, done: ['pick'] });
    expect(press('Tab', 3)).toEqual({ taken: true, prevented: true, done: ['pick'] });
    expect(press('Escape', 3)).toEqual({ taken: true, prevented: true, done: ['close'] });
  });

  it('leaves typing, Shift+Enter, a composition and an empty list to the text field', () => {
    for (const pressed of [
      press('a', 3),
      press('Enter', 3, { shiftKey: true }),
      press('Enter', 3, { isComposing: true }),
      press('Enter', 0),
    ])
      expect(pressed).toEqual({ taken: false, prevented: false, done: [] });
  });

  it('goes round the ends of the list', () => {
    expect(movedHighlight(0, 1, 3)).toBe(1);
    expect(movedHighlight(2, 1, 3)).toBe(0);
    expect(movedHighlight(0, -1, 3)).toBe(2);
    expect(movedHighlight(0, -1, 1)).toBe(0);
  });
});
