/*
 * `@name` in a private note (issue 22 §6): the composer offers the company's colleagues while a
 * word starting with @ is typed, puts the picked name in the text, and sends the ids of the picked
 * names still in the text when the note goes. Pure, for the composer and its tests.
 */

export interface Colleague {
  id: number;
  name: string;
}

/** Colleagues offered at once. */
export const MENTION_OPTIONS = 8;

const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The `@word` being typed just before `caret` (its @'s index and the word), or null. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)@([^\s@]{0,30})$/u.exec(text.slice(0, caret));
  const query = match?.[1];
  if (query === undefined) return null;
  return { start: caret - query.length - 1, query };
}

/** Colleagues whose name, or a word of it, starts with `query` (accents and case aside); never `selfId`. */
export function matchColleagues(users: readonly Colleague[] | undefined, query: string, selfId: number | undefined): Colleague[] {
  const wanted = fold(query);
  return (users ?? [])
    .filter((user) => user.id !== selfId)
    .filter(
      (user) =>
        !wanted ||
        fold(user.name).startsWith(wanted) ||
        fold(user.name)
          .split(/\s+/)
          .some((word) => word.startsWith(wanted)),
    )
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MENTION_OPTIONS);
}

/** The text with the `@query` at `start..caret` replaced by `@name `, and where the caret goes. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The ids of the picked colleagues whose `@name` is still in the text, once each. */
export function mentionIdsIn(text: string, picked: readonly Colleague[]): number[] {
  return [...new Set(picked.filter((user) => text.includes(`@${user.name}`)).map((user) => user.id))];
}
