/**
 * Private notes in the conversation (issue 22 §6): POST /messages/{ticketId} with `isPrivate: true`.
 * A note is the attendant's text kept in the ticket's thread for colleagues, beside the contact
 * drawer's notes. It is a message of ours in every way the inbox reads (stored in the thread, the
 * usual `appMessage` create for every viewer of the ticket) and in none the contact could observe:
 *   - never sent: stored settled (not pending, no WhatsApp id, so no waLink and no send command;
 *     dispatchOutgoing and sendCommandFor refuse it besides), so it never gets ack ticks;
 *   - never in a webhook (tickets/publish.ts), nor in the AI prompt's history (bots/turn.ts);
 *   - not the ticket's lastMessage (the list's preview keeps the last real message, so a note never
 *     reads as the customer being answered) and not a first response (storage/messages.ts).
 * The same rules as a send: a ticket the caller may see (another tenant's is not found), open.
 * Text only: media (files, uploads, a quick reply's file) with a note is a 400.
 */
import { ValidationError } from '#commons/errors';
import type { Message } from '#contracts/messages';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { buildOutgoingMessage, dispatchOutgoing } from '#domain/messages/send';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { getMessage, type MessageRecord, storeMessage } from '#storage/messages';
import { presentMessage } from './present.ts';
import { assertOpen, checkQuoted } from './send.ts';

export interface PrivateNote {
  body: string;
  /** Media asked with the note (files, uploaded keys): refused, a note is text only. */
  hasMedia: boolean;
  quotedMessageId?: string;
}

export async function addPrivateNote(
  viewer: Viewer,
  ticketId: number,
  note: PrivateNote,
  effects: Effects = defaultEffects,
): Promise<Message> {
  const ticket = await loadVisibleTicket(viewer, ticketId);
  assertOpen(ticket);
  if (note.hasMedia) throw new ValidationError('isPrivate', 'A private note is text only');
  if (!note.body.trim()) throw new ValidationError('body', 'Message body is required');
  const quotedMessageId = await checkQuoted(viewer.companyId, ticket, note.quotedMessageId);
  const built = await buildOutgoingMessage(
    { companyId: viewer.companyId, ticket, body: note.body, userId: viewer.userId, quotedMessageId },
    effects.now(),
  );
  const record: MessageRecord = { ...built, pending: false, isPrivate: true };
  const outcome = await storeMessage(record, ticket, { unread: false, requireActive: false });
  const stored = outcome === 'duplicate' ? ((await getMessage(viewer.companyId, ticket.id, record.id)) ?? record) : record;
  // Publishes the create (and the ticket, its updatedAt moved) to the ticket's viewers; sends nothing.
  await dispatchOutgoing([stored], ticket, effects);
  return presentMessage(stored);
}
