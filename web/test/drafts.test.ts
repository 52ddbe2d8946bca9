/**
 * The composer's drafts (features/messages/api/drafts.ts): what was typed in a conversation comes
 * back there, a note as a note with the colleagues it mentions, for the same user only; sending (an empty text) forgets it; only
 * the newest MAX_DRAFTS are kept; a stored value the app did not write reads as no draft.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DRAFTS, readDraft, writeDraft } from '../src/lib/drafts.ts';

const store = new Map<string, string>();
const scope = globalThis as unknown as { window?: unknown };

beforeEach(() => {
  store.clear();
  scope.window = {
    localStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
  };
});
afterEach(() => {
  delete scope.window;
});

describe('drafts', () => {
  it("gives each conversation its own text back, a note as a note, and never another user's", () => {
    writeDraft(7, 1, { text: 'Vou verificar o pedido', note: false, mentions: [] });
    writeDraft(7, 2, { text: '@Vera olha esse cliente', note: true, mentions: [{ id: 3, name: 'Vera' }] });
    expect(readDraft(7, 1)).toEqual({ text: 'Vou verificar o pedido', note: false, mentions: [] });
    expect(readDraft(7, 2)).toEqual({ text: '@Vera olha esse cliente', note: true, mentions: [{ id: 3, name: 'Vera' }] });
    expect(readDraft(8, 1)).toEqual({ text: '', note: false, mentions: [] });
    expect(readDraft(undefined, 1)).toEqual({ text: '', note: false, mentions: [] });
  });

  it('forgets a draft once its text is sent or erased', () => {
    writeDraft(7, 1, { text: 'Olá', note: false, mentions: [] });
    writeDraft(7, 1, { text: '   ', note: false, mentions: [] });
    expect(readDraft(7, 1)).toEqual({ text: '', note: false, mentions: [] });
    expect(JSON.parse(store.get('drafts') ?? '{}')).toEqual({});
  });

  it(`keeps the newest ${MAX_DRAFTS} only`, () => {
    for (let id = 1; id <= MAX_DRAFTS + 5; id++) writeDraft(7, id, { text: `texto ${id}`, note: false, mentions: [] }, 1_000 + id);
    expect(Object.keys(JSON.parse(store.get('drafts') ?? '{}'))).toHaveLength(MAX_DRAFTS);
    expect(readDraft(7, 5).text).toBe('');
    expect(readDraft(7, 6).text).toBe('texto 6');
  });

  it('reads garbage in storage as no draft, and writes over it', () => {
    for (const garbage of ['not json', '[1,2]', 'null', '{"7:1": {"text": 5}}']) {
      store.set('drafts', garbage);
      expect(readDraft(7, 1)).toEqual({ text: '', note: false, mentions: [] });
    }
    // A note's mentions that are not colleagues are dropped; a message never carries any.
    store.set('drafts', '{"7:1": {"text": "@Ana", "note": true, "mentions": [{"id": "x"}, {"id": 4, "name": "Ana"}, null]}}');
    expect(readDraft(7, 1)).toEqual({ text: '@Ana', note: true, mentions: [{ id: 4, name: 'Ana' }] });
    writeDraft(7, 2, { text: 'oi', note: false, mentions: [{ id: 4, name: 'Ana' }] });
    expect(readDraft(7, 2).mentions).toEqual([]);
    writeDraft(7, 1, { text: 'de novo', note: false, mentions: [] });
    expect(readDraft(7, 1).text).toBe('de novo');
  });
});
