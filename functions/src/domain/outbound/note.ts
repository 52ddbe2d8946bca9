/**
 * Private notes in the conversation (issue 22 §6): POST /messages/{ticketId} with `isPrivate: true`.
 * A note is the attendant's text kept in the ticket's thread for colleagues, beside the contact
 * drawer's notes. It is a message of ours in every way the inbox reads (stored in the thread, the
 * usual `appMessage` create for every viewer of the ticket) and in none the contact could observe:
 *   - never sent: stored settled (not pending, no WhatsApp id, so no waLink and no send command;
 *     dispatchOutgoing and sendCommandFor refuse it besides), so it never gets ack ticks;
 *   - never in a webhook (tickets/publish.ts), nor in the AI prompt's history (bots/turn.ts);
 *   - not the ticket's lastMessage (the list's preview keeps the last real message, so a note never
 *     reads as the customer being answered) and not a first response (storage/messages/messages.ts).
 * The same rules as a send: a ticket the caller may see (another tenant's is not found), open.
 * Text only: media (files, uploads, a quick reply's file) with a note is a 400.
 *
 * Mentions (`mentions: [userId]`, contracts/mentions.ts): colleagues of the company, each recorded in
 * the note's own transaction (storage/mentions.ts) and told at once on their sockets; an id that is
 * not a user of the company is a 400 and stores nothing. The author is never told about themselves.
 */
import { ValidationError } from '#commons/errors';
import { channels } from '#contracts/channels';
import { MENTION_EXCERPT_MAX, type Mention, type MentionEvent, type MentionedUser } from '#contracts/mentions';
import type { Message } from '#contracts/messages';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { buildOutgoingMessage, dispatchOutgoing } from '#domain/messages/send';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { audience } from '#realtime/audience';
import { mentionItems } from '#storage/mentions';
import { getMessage, type MessageRecord, storeMessage } from '#storage/messages/messages';
import { listUserNamesCached, listUsers } from '#storage/users/users';
import { presentMessage } from './present.ts';
import { assertOpen, checkQuoted } from './send.ts';

export interface PrivateNote {
  body: string;
  /** Users of the company the note mentions (`@name`). */
  mentions?: readonly number[];
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
  const mentioned = await mentionedUsers(viewer, note.mentions ?? []);
  const record: MessageRecord = { ...built, pending: false, isPrivate: true, ...(mentioned.length ? { mentions: mentioned } : {}) };
  const mention: Omit<Mention, 'readAt'> = {
    id: record.id,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    contactName: ticket.contact.name,
    authorId: viewer.userId,
    authorName: viewer.user.name,
    excerpt: note.body.trim().slice(0, MENTION_EXCERPT_MAX),
    createdAt: record.createdAt,
  };
  const told = mentioned.filter((user) => user.id !== viewer.userId).map((user) => user.id);
  const extra = told.length ? mentionItems(viewer.companyId, told, mention) : undefined;
  const outcome = await storeMessage(record, ticket, { unread: false, requireActive: false, extra });
  const stored = outcome === 'duplicate' ? ((await getMessage(viewer.companyId, ticket.id, record.id)) ?? record) : record;
  // Publishes the create (and the ticket, its updatedAt moved) to the ticket's viewers; sends nothing.
  await dispatchOutgoing([stored], ticket, effects);
  if (outcome === 'stored' && told.length)
    await effects.publish(
      viewer.companyId,
      channels.mention(viewer.companyId),
      { action: 'create', mention: { ...mention, readAt: null } } satisfies MentionEvent,
      audience.users(told),
    );
  return presentMessage(stored);
}

/** The company's users of `ids` with their names, in the order asked; any other id is a 400. */
async function mentionedUsers(viewer: Viewer, ids: readonly number[]): Promise<MentionedUser[]> {
  if (!ids.length) return [];
  const unique = [...new Set(ids)];
  let names = await listUserNamesCached(viewer.companyId);
  // A colleague created a moment ago may not be in the cached names yet.
  if (unique.some((id) => !names.some((user) => user.id === id))) names = await listUsers(viewer.companyId);
  return unique.map((id) => {
    const user = names.find((candidate) => candidate.id === id);
    if (!user) throw new ValidationError('mentions', `User ${id} is not a colleague of this company`, 'ERR_MENTION_UNKNOWN_USER');
    return { id: user.id, name: user.name };
  });
}
