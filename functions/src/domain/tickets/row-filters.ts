/** Row predicates of the ticket lists and the text search (list.ts, search-page.ts): filters over the rows read. */
import { type SlaFilter, slaStateAt } from '#contracts/sla';
import { contactWords } from '#storage/search-index';
import type { TicketRecord } from '#storage/tickets/record';

export type Predicate = (ticket: TicketRecord) => boolean;

/** Every word of `words` starts a word of the ticket's contact (name or number). */
export const contactHasWords = (ticket: TicketRecord, words: string[]): boolean => {
  const own = contactWords(ticket.contact);
  return words.every((word) => own.some((candidate) => candidate.startsWith(word)));
};

export const allOf = (predicates: (Predicate | undefined)[]): Predicate | undefined => {
  const active = predicates.filter((p): p is Predicate => Boolean(p));
  if (!active.length) return undefined;
  return (ticket) => active.every((p) => p(ticket));
};

/** The ticket's service level is in `state` now (a state is a function of the stored times and the clock). */
export const slaIs =
  (state: SlaFilter, now = Date.now()): Predicate =>
  (ticket) =>
    slaStateAt(ticket.sla, now) === state;

export const hasTags =
  (tagIds: number[]): Predicate =>
  (ticket) =>
    tagIds.every((id) => (ticket.tags ?? []).some((tag) => tag.id === id));
