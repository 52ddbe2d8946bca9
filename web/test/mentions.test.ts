/**
 * `@name` in a note (issue 22 §6): what the composer offers while a word starting with @ is typed,
 * what picking one writes, which ids go with the note, and which words of a stored note the thread
 * marks as mentions.
 */
import { describe, expect, it } from 'vitest';
import { insertMention, matchColleagues, mentionIdsIn, mentionQueryAt } from '../src/features/messages/api/mentions.ts';
import { splitMentions } from '../src/features/messages/components/message-body.tsx';

const team = [
  { id: 1, name: 'Você Mesmo' },
  { id: 2, name: 'Ana Paula Souza' },
  { id: 3, name: 'Ângela Dias' },
  { id: 4, name: 'Bruno Ana' },
  { id: 5, name: 'Carlos' },
];

describe('the @ the composer reacts to', () => {
  it('is the word being typed at the caret, at the start or after a space', () => {
    expect(mentionQueryAt('@an', 3)).toEqual({ start: 0, query: 'an' });
    expect(mentionQueryAt('ask @', 5)).toEqual({ start: 4, query: '' });
    expect(mentionQueryAt('ask @ana about it', 8)).toEqual({ start: 4, query: 'ana' });
  });

  it('is not an e-mail address, nor a word the caret has left', () => {
    expect(mentionQueryAt('mail ana@shop.com', 17)).toBeNull();
    expect(mentionQueryAt('@ana done', 9)).toBeNull();
  });
});

describe('the colleagues offered', () => {
  it('match the start of any word of the name, accents and case aside, never the writer', () => {
    expect(matchColleagues(team, 'an', 1).map((c) => c.id)).toEqual([2, 3, 4]);
    expect(matchColleagues(team, 'ANGE', 1).map((c) => c.id)).toEqual([3]);
    expect(matchColleagues(team, 'voc', 1)).toEqual([]);
    expect(matchColleagues(team, '', 1).map((c) => c.name)).toEqual(['Ana Paula Souza', 'Ângela Dias', 'Bruno Ana', 'Carlos']);
  });
});

describe('picking and sending', () => {
  it('writes the whole name after the @ and puts the caret after it', () => {
    expect(insertMention('ask @an about it', 4, 7, 'Ana Paula Souza')).toEqual({ text: 'ask @Ana Paula Souza  about it', caret: 21 });
  });

  it('sends the ids of the picked names still in the text, once each', () => {
    const picked = [team[1], team[4], team[1]].filter((c) => c !== undefined);
    expect(mentionIdsIn('@Ana Paula Souza and @Ana Paula Souza, see this', picked)).toEqual([2]);
    expect(mentionIdsIn('nobody now', picked)).toEqual([]);
  });
});

describe('a stored note’s mentions in the thread', () => {
  it('marks each @name of the colleagues it mentions, the longest name first', () => {
    expect(splitMentions('@Ana Paula Souza and @Ana, not ana@x.com', ['Ana', 'Ana Paula Souza'])).toEqual([
      { text: '@Ana Paula Souza', mention: true, at: 0 },
      { text: ' and ', mention: false, at: 16 },
      { text: '@Ana', mention: true, at: 21 },
      { text: ', not ana@x.com', mention: false, at: 25 },
    ]);
  });

  it('leaves a name inside a longer word alone, and text with no mentions whole', () => {
    expect(splitMentions('@Carlosinho', ['Carlos'])).toEqual([{ text: '@Carlosinho', mention: false, at: 0 }]);
    expect(splitMentions('plain', [])).toEqual([{ text: 'plain', mention: false, at: 0 }]);
  });
});
