import { useSyncExternalStore } from 'react';
import { readStorage, storageKeys, writeStorage } from './storage.ts';

/** A colleague a note names (features/messages/api/mentions.ts's Colleague). */
interface Colleague {
  id: number;
  name: string;
}

/**
 * What the user typed in a conversation and has not sent, kept when they open another one (or
 * reload) and given back when they return, as chat apps do. A private note stays a note: restoring
 * its text as a message would send the team's words to the customer; the colleagues it names with
 * an @ are still mentioned when it goes. Kept in the browser, per user
 * (a shared computer's next user does not see them), the newest MAX_DRAFTS only. The ticket list
 * shows a conversation's draft in its row (useDraftText), as chat apps do.
 */
export interface Draft {
  text: string;
  note: boolean;
  /** The colleagues picked from a note's @ list (a name typed without picking mentions nobody). */
  mentions: Colleague[];
}

export const MAX_DRAFTS = 50;

type Stored = Record<string, Draft & { at: number }>;

const keyOf = (userId: number, ticketId: number) => `${userId}:${ticketId}`;

/** The last stored text read, parsed once however many rows ask. */
let cache: { raw: string | null; all: Stored } | undefined;

function readAll(): Stored {
  const raw = readStorage(storageKeys.drafts);
  if (cache?.raw === raw) return cache.all;
  let all: Stored = {};
  try {
    const parsed: unknown = JSON.parse(raw ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) all = parsed as Stored;
  } catch {
    // Not ours: no drafts.
  }
  cache = { raw, all };
  return all;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const empty: Draft = { text: '', note: false, mentions: [] };

/** The draft of `ticketId`'s conversation for `userId`; empty when there is none (or no user yet). */
export function readDraft(userId: number | undefined, ticketId: number): Draft {
  if (userId === undefined) return empty;
  const stored = readAll()[keyOf(userId, ticketId)];
  if (!stored || typeof stored.text !== 'string') return empty;
  const mentions = Array.isArray(stored.mentions)
    ? stored.mentions.filter((c): c is Colleague => Number.isSafeInteger(c?.id) && typeof c?.name === 'string')
    : [];
  return { text: stored.text, note: stored.note === true, mentions: stored.note === true ? mentions : [] };
}

/** Keeps the draft (an empty text forgets it), dropping the oldest beyond MAX_DRAFTS. */
export function writeDraft(userId: number | undefined, ticketId: number, draft: Draft, now = Date.now()): void {
  if (userId === undefined) return;
  const all = { ...readAll() };
  const key = keyOf(userId, ticketId);
  if (!draft.text.trim()) {
    if (!(key in all)) return;
    delete all[key];
  } else all[key] = { text: draft.text, note: draft.note, mentions: draft.note ? draft.mentions : [], at: now };
  const kept = Object.entries(all)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_DRAFTS);
  writeStorage(storageKeys.drafts, JSON.stringify(Object.fromEntries(kept)));
  for (const listener of listeners) listener();
}

/**
 * The draft's text of `ticketId`'s conversation for `userId`, kept current as drafts are written: a
 * component re-renders only when this conversation's text changes, not at every key typed elsewhere.
 */
export function useDraftText(userId: number | undefined, ticketId: number): string {
  return useSyncExternalStore(subscribe, () => readDraft(userId, ticketId).text);
}
