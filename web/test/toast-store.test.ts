/**
 * The toast store keeps the latest three: a fourth toast closes the oldest instead of waiting
 * behind it, so the answer to what the user just did is on screen at once.
 */
import { describe, expect, it } from 'vitest';
import { toast, toastStore, VISIBLE_TOASTS } from '../src/lib/toast.ts';

describe('toast store', () => {
  it('shows a new toast at once, closing the oldest past three', () => {
    let changes = 0;
    const stop = toastStore.subscribe(() => changes++);
    for (const message of ['Imported 3 contacts', 'Contact saved', 'Contact saved', 'Contact deleted']) toast.success(message);
    stop();
    expect(VISIBLE_TOASTS).toBe(3);
    expect(toastStore.getSnapshot().map((t) => t.message)).toEqual(['Contact saved', 'Contact saved', 'Contact deleted']);
    expect(changes).toBe(4);
  });

  it('closes one toast by its id and keeps the others', () => {
    const before = toastStore.getSnapshot();
    toast.dismiss(before[0]!.id);
    expect(toastStore.getSnapshot().map((t) => t.id)).toEqual(before.slice(1).map((t) => t.id));
  });
});
