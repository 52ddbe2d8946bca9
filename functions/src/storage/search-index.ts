/**
 * The text search index (issue 4): word -> contacts, word -> tickets, so a search reads the rows of
 * its term and never the tenant's other rows.
 *
 *   pk = C#<cid>#SRCH#<first 3 chars of the word>[#<shard>]
 *   sk = C#<word>#<padded contactId>                      a word of a contact's name, or its number's digits
 *        N#<word>#<inverted ticketId>                     the same words of a ticket's contact (its copy)
 *        M#<word>#<inverted ticketId>#<message id>        a word of a message of the ticket
 *
 * One item per (word, contact) / (word, ticket) / (word, ticket, message): a Query on
 * begins_with(sk, 'N#<term>') is a prefix search ("mar" finds "maria" and "marcos"), one item per
 * hit, never a scan. Ticket ids are inverted so the newest tickets of a word come first. Words are
 * folded (case and accents ignored) and only words of MIN_WORD+ characters are indexed: shorter
 * terms are not searched through the index.
 *
 * Message words (`M`, issue 24) are one item per message that holds the word, so writing one is a
 * plain Put of a key the message alone decides (1 WCU, outside any transaction, the same item
 * whoever writes it again) and taking it back is a Delete of that key; a ticket whose messages share
 * a word has one item per message, which the reader lists once (domain/tickets/search-page.ts).
 * Their partitions are write-sharded like the ticket lists of a busy tenant (list-shards.ts): shard
 * `ticket id % count`, shard 0 being the unsharded partition, the shard recorded on the message
 * (messages/messages.ts `wordIndex`) so its words are taken back where they were written; readers query every
 * shard of the tenant's count and merge (search-reads.ts). Items written before issue 24 (`M` without
 * a message id, counted with `refs`) stay readable and are taken back by their counts (messages/words.ts).
 *
 * Who keeps it: contacts/contacts.ts (create, update, delete: C items), tickets/tickets.ts (create, contact refresh:
 * N items), messages/messages.ts + messages/words.ts (M items, at most MAX_MESSAGE_WORDS per message, written
 * after the message's transaction; an edit replaces the message's items, a deleted message takes
 * them back, so a search stops finding a ticket by text it no longer shows). Deleting a ticket
 * removes its items (tickets/removal.ts).
 */
import { pad, tenantPk } from './table.ts';

export const MIN_WORD = 3;
const MAX_WORD = 40;
/** Per message: keeps a message's index writes (and its transaction) small. */
export const MAX_MESSAGE_WORDS = 8;
const INVERT = 9_999_999_999;

/** Words too common to tell tickets apart (pt, es, en): indexing them is writes for nothing. */
const STOP_WORDS = new Set(
  'que para com nao uma por mas dos das nos nas como mais pra voce voces sim ele ela isso esse essa este esta estou tem tenho ser sao foi ate muito bem obrigado obrigada ola oi the and you for are not los las del por con una para pero este esta'.split(
    ' ',
  ),
);

export const foldText = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Distinct folded words of `text` worth indexing, in order of appearance. */
export function indexWords(text: string): string[] {
  const words = foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= MIN_WORD && !STOP_WORDS.has(word)).map((word) => word.slice(0, MAX_WORD)))];
}

/** The words of a contact: its name's words and its number's digits. */
export const contactWords = (contact: { name: string; number: string }): string[] => [
  ...new Set([...indexWords(contact.name), ...(contact.number.length >= MIN_WORD ? [contact.number] : [])]),
];

/** The words a search term is looked up by: the longest is queried, the others narrow (list.ts). */
export function termWords(term: string): string[] {
  const words = (foldText(term).match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word.slice(0, MAX_WORD));
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** A word's partition; `shard` > 0 only for message words (`M`) of a sharded tenant (see the header). */
export const searchPartition = (companyId: number, word: string, shard = 0): string =>
  `${tenantPk(companyId)}#SRCH#${word.slice(0, MIN_WORD)}${shard ? `#${shard}` : ''}`;
const inverted = (ticketId: number): string => pad(INVERT - ticketId);
/** Sort keys are `<kind>#<word>#<id>[#<message id>]`: words and ids hold no '#'. */
export const ticketIdOfSearchSk = (sk: string): number => INVERT - Number(sk.split('#')[2]);
export const contactIdOfSearchSk = (sk: string): number => Number(sk.split('#')[2]);
/** The (kind, word, ticket) part of a sort key: the hits of one ticket's messages for one word share it. */
export const searchHitTicketPart = (sk: string): string => sk.split('#', 3).join('#');

export type SearchKind = 'C' | 'N' | 'M';
type Key = { pk: string; sk: string };

export const contactSearchKey = (companyId: number, word: string, contactId: number): Key => ({
  pk: searchPartition(companyId, word),
  sk: `C#${word}#${pad(contactId)}`,
});
export const ticketSearchKey = (companyId: number, kind: 'N' | 'M', word: string, ticketId: number): Key => ({
  pk: searchPartition(companyId, word),
  sk: `${kind}#${word}#${inverted(ticketId)}`,
});

/** A message's word: its item's key (M, see the header). */
export const messageWordKey = (companyId: number, word: string, ticketId: number, messageId: string, shard: number): Key => ({
  pk: searchPartition(companyId, word, shard),
  sk: `M#${word}#${inverted(ticketId)}#${messageId}`,
});

/** The prefix a Query of `kind` for `word` uses (begins_with on sk). */
export const searchPrefix = (kind: SearchKind, word: string): string => `${kind}#${word}`;

/** The index items of a contact (a Put each). */
export const contactSearchItems = (companyId: number, contact: { id: number; name: string; number: string }) =>
  contactWords(contact).map((word) => ({ ...contactSearchKey(companyId, word, contact.id), entity: 'search', contactId: contact.id }));

/** The index items of a ticket for its contact's words (`N`). */
export const ticketSearchItems = (companyId: number, kind: 'N', ticketId: number, words: string[]) =>
  words.map((word) => ({ ...ticketSearchKey(companyId, kind, word, ticketId), entity: 'search', ticketId }));

/** Where a message's words are (written on the message, messages/messages.ts): the shard of their partitions and the words. */
export interface WordIndex {
  shard: number;
  words: string[];
}

/** The index items of a message's words (`M`, a Put each). */
export const messageWordItems = (companyId: number, ticketId: number, messageId: string, index: WordIndex) =>
  index.words.map((word) => ({ ...messageWordKey(companyId, word, ticketId, messageId, index.shard), entity: 'search', ticketId }));

/** Message words to index for one message (bounded, see MAX_MESSAGE_WORDS). */
export const messageWords = (body: string): string[] => indexWords(body).slice(0, MAX_MESSAGE_WORDS);
