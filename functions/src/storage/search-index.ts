/**
 * The text search index (issue 4): word -> contacts, word -> tickets, so a search reads the rows of
 * its term and never the tenant's other rows.
 *
 *   pk = C#<cid>#SRCH#<first 3 chars of the word>
 *   sk = C#<word>#<padded contactId>           a word of a contact's name, or its number's digits
 *        N#<word>#<inverted ticketId>          the same words of a ticket's contact (its copy)
 *        M#<word>#<inverted ticketId>          a word of a message of the ticket
 *
 * One item per (word, contact) / (word, ticket): a Query on begins_with(sk, 'N#<term>') is a prefix
 * search ("mar" finds "maria" and "marcos"), one item per hit, never a scan. Ticket ids are inverted
 * so the newest tickets of a word come first. Words are folded (case and accents ignored) and only
 * words of MIN_WORD+ characters are indexed: shorter terms are not searched through the index.
 *
 * Who keeps it: contacts.ts (create, update, delete: C items), tickets.ts (create, contact refresh:
 * N items), messages.ts + message-words.ts (M items, at most MAX_MESSAGE_WORDS per message, written
 * in the message's transaction and counted: `refs` messages of the ticket hold the word). An edit
 * replaces the message's words and a deleted message takes its words back; the item goes when no
 * message of the ticket holds its word, so a search stops finding a ticket by text it no longer
 * shows. Deleting a ticket removes its items (ticket-removal.ts).
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

export const searchPartition = (companyId: number, word: string): string => `${tenantPk(companyId)}#SRCH#${word.slice(0, MIN_WORD)}`;
const inverted = (ticketId: number): string => pad(INVERT - ticketId);
export const ticketIdOfSearchSk = (sk: string): number => INVERT - Number(sk.slice(sk.lastIndexOf('#') + 1));
export const contactIdOfSearchSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

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

/** The prefix a Query of `kind` for `word` uses (begins_with on sk). */
export const searchPrefix = (kind: SearchKind, word: string): string => `${kind}#${word}`;

/** The index items of a contact (a Put each). */
export const contactSearchItems = (companyId: number, contact: { id: number; name: string; number: string }) =>
  contactWords(contact).map((word) => ({ ...contactSearchKey(companyId, word, contact.id), entity: 'search', contactId: contact.id }));

/** The index items of a ticket for its contact's words (`N`) or a message's words (`M`). */
export const ticketSearchItems = (companyId: number, kind: 'N' | 'M', ticketId: number, words: string[]) =>
  words.map((word) => ({ ...ticketSearchKey(companyId, kind, word, ticketId), entity: 'search', ticketId }));

/** Message words to index for one message (bounded, see MAX_MESSAGE_WORDS). */
export const messageWords = (body: string): string[] => indexWords(body).slice(0, MAX_MESSAGE_WORDS);
