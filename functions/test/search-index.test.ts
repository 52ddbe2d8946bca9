/**
 * The search index's words and keys (storage/search-index.ts): what gets indexed, how a term is
 * looked up, and that a word's hits come newest ticket first and stay inside the tenant.
 */
import { describe, expect, it } from 'vitest';
import {
  contactSearchKey,
  contactWords,
  indexWords,
  MAX_MESSAGE_WORDS,
  messageWordKey,
  messageWords,
  searchHitTicketPart,
  searchPrefix,
  termWords,
  ticketIdOfSearchSk,
  ticketSearchKey,
} from '../src/storage/search-index.ts';

describe('search words', () => {
  it('folds case and accents, drops short and stop words, keeps each word once', () => {
    expect(indexWords('João da SILVA, joão Conceição - OK para 2x')).toEqual(['joao', 'silva', 'conceicao']);
  });

  it('indexes a contact by its name words and its number', () => {
    expect(contactWords({ name: 'Ana Maria Souza', number: '5511999990000' })).toEqual(['ana', 'maria', 'souza', '5511999990000']);
  });

  it('bounds the words of one message', () => {
    const body = Array.from({ length: 30 }, (_, i) => `palavra${i}`).join(' ');
    expect(messageWords(body)).toHaveLength(MAX_MESSAGE_WORDS);
  });

  it('looks a term up by its longest word first', () => {
    expect(termWords('Ana  Conceição')).toEqual(['conceicao', 'ana']);
  });
});

describe('search keys', () => {
  it('puts a word in its tenant and 3-letter partition, prefix-searchable', () => {
    const key = ticketSearchKey(7, 'N', 'mariana', 12);
    expect(key.pk).toBe('C#7#SRCH#mar');
    expect(key.sk.startsWith(searchPrefix('N', 'mari'))).toBe(true);
    expect(ticketSearchKey(8, 'N', 'mariana', 12).pk).not.toBe(key.pk);
    expect(contactSearchKey(7, 'mariana', 3).sk).toBe('C#mariana#0000000003');
  });

  it('orders a word newest ticket first and reads the id back', () => {
    const older = ticketSearchKey(7, 'M', 'boleto', 5).sk;
    const newer = ticketSearchKey(7, 'M', 'boleto', 500).sk;
    expect(newer < older).toBe(true);
    expect(ticketIdOfSearchSk(newer)).toBe(500);
  });

  it("keys a message's word by its message, in its shard's partition, read back to its ticket", () => {
    const key = messageWordKey(7, 'boleto', 500, '0192aa-msg', 2);
    expect(key.pk).toBe('C#7#SRCH#bol#2');
    expect(messageWordKey(7, 'boleto', 500, '0192aa-msg', 0).pk).toBe('C#7#SRCH#bol');
    expect(key.sk.startsWith(searchPrefix('M', 'bol'))).toBe(true);
    expect(ticketIdOfSearchSk(key.sk)).toBe(500);
    // Two messages of one ticket share the (word, ticket) part; another ticket does not.
    expect(searchHitTicketPart(key.sk)).toBe(searchHitTicketPart(messageWordKey(7, 'boleto', 500, 'other', 2).sk));
    expect(searchHitTicketPart(key.sk)).not.toBe(searchHitTicketPart(messageWordKey(7, 'boleto', 501, '0192aa-msg', 2).sk));
  });
});
