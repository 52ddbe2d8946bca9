/**
 * expiresTicket (BEHAVIOUR "Tickets"): an open ticket whose last message is ours and that has been
 * idle for the connection's minutes is closed, with expiresInactiveMessage sent when it is set.
 *
 * "Last message is ours" is read from the conversation itself, the newest message of the ticket's
 * partition (one Query, Limit 1: storage/sweeps/candidates.ts): every write path that adds a message
 * (inbound, chatbot replies, attendants' sends, ticket actions) puts it there, whereas a flag on the
 * ticket would have to be kept by each of them. It is read only for tickets already past the cutoff, so it costs one small
 * read per candidate.
 *
 * The goodbye message is committed in the same transaction as the close (pending, like every
 * outgoing message) and sent after: it exists iff the ticket closed, so two runs racing on a ticket
 * close it once and send once. A crash between the commit and the send leaves it pending, unsent
 * (at most once, never twice).
 */

import type { Effects } from '#domain/messages/effects';
import { derivedMessageId } from '#domain/messages/message-id';
import { buildOutgoingMessage, dispatchOutgoing } from '#domain/messages/send';
import { afterTicketChange } from '#domain/tickets/auto-assign';
import { historyItems } from '#domain/tickets/history';
import type { ConnectionRecord } from '#storage/connections';
import { messageItems } from '#storage/messages/messages';
import { lastMessageIsOurs } from '#storage/sweeps/candidates';
import { commitIfUnchanged } from '#storage/sweeps/commit';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { publishSweptTicket } from './publish.ts';

/** Closes `ticket` (read from the open list, idle past the cutoff) if its last message is ours. True when it closed it. */
export async function expireTicket(ticket: TicketRecord, connection: ConnectionRecord, now: Date, effects: Effects): Promise<boolean> {
  if (ticket.status !== 'open' || ticket.whatsappId !== connection.id) return false;
  if (!(await lastMessageIsOurs(ticket))) return false;

  // No automatic messages to groups (as for the ticket actions' completion message).
  const body = ticket.isGroup ? '' : (connection.expiresInactiveMessage ?? '').trim();
  const message = body
    ? await buildOutgoingMessage(
        // The same id for every run that judged this revision: one message whichever run commits.
        {
          companyId: ticket.companyId,
          ticket,
          body,
          bot: true,
          origin: 'automatic',
          id: derivedMessageId(now.getTime(), `expire:${ticket.id}:${ticket.revision}`, ticket.id),
        },
        now,
      )
    : undefined;
  // As a resolve without rating: the conversation and any integration stop with it.
  const patch: TicketStatePatch = {
    status: 'closed',
    awaitingRating: false,
    chatbot: false,
    bot: null,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    ...(message ? { lastMessage: message.body, lastMessageAt: Date.parse(message.createdAt) } : {}),
  };
  // History: `finished` (derived from the close) by the system (actor null), for the dashboard.
  const history = historyItems([], ticket, { ...ticket, ...patch }, null, now.toISOString());
  const next = await commitIfUnchanged(ticket, patch, [...history, ...(message ? messageItems(message) : [])], now);
  if (!next) return false;
  // The send command, the message and the ticket update (to the same viewers: closing keeps queue and user).
  if (message) await dispatchOutgoing([message], next, effects);
  else await publishSweptTicket(effects, ticket, next);
  // Its attendant's seat is free again (issue 22 §2).
  await afterTicketChange(effects, ticket, next);
  return true;
}
