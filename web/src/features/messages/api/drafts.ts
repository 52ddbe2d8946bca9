import { readStorage, storageKeys, writeStorage } from '../../../lib/storage.ts';
import type { Colleague } from './mentions.ts';

/**
 * What the user typed in a conversation and has not sent, kept when they open another one (or
 * reload) and given back when they return, as chat apps do. A private note stays a note: restoring
 * its text as a message would send the team's words to the customer; the colleagues it names with
 * an @ are still mentioned when it goes. Kept in the browser, per user
 * (a shared computer's next user does not see them), the newest MAX_DRAFTS only.
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

function readAll(): Stored {
  try {
    const parsed: unknown = JSON.parse(readStorage(storageKeys.drafts) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Stored) : {};
  } catch {
    return {};
  }
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
  const all = readAll();
  const key = keyOf(userId, ticketId);
  if (!draft.text.trim()) {
    if (!(key in all)) return;
    delete all[key];
  } else all[key] = { text: draft.text, note: draft.note, mentions: draft.note ? draft.mentions : [], at: now };
  const kept = Object.entries(all)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_DRAFTS);
  writeStorage(storageKeys.drafts, JSON.stringify(Object.fromEntries(kept)));
}
