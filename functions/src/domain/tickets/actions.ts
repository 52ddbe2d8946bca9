/**
 * PUT /tickets/{id}: accept, return, resolve, reopen and transfer (SPEC 4 "Ticket", BEHAVIOUR
 * "Tickets"), decided from the stored ticket and the request, then committed in ONE transaction:
 * the state change (conditional on the revision read, so a concurrent change is a 409 and never a
 * lost update), the (contact, connection) slot transition, the history events and the automatic
 * messages as pending outgoing messages. After the commit the messages are sent (one `send`
 * command each, safe to repeat: commandId = messageId) and the change is published once, messages
 * first (notify.ts publishTicketChange): the ticket's `update` is not repeated for each message.
 */
import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import type { MessageOrigin } from '#contracts/messages';
import type { UpdateTicketInput } from '#contracts/ticket-requests';
import type { Ticket, TicketStatus } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { buildOutgoingMessage, sendCommandFor } from '#domain/messages/send';
import { getCompanySetting } from '#domain/settings/settings';
import { getConnection } from '#storage/connections';
import { getContact } from '#storage/contacts/contacts';
import { type MessageRecord, messageItems } from '#storage/messages/messages';
import { getQueue } from '#storage/queues/queues';
import type { TicketHistoryKind } from '#storage/tickets/history';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { SlotTakenError, StaleTicketError, updateTicketState } from '#storage/tickets/tickets';
import { getUser } from '#storage/users/users';
import { loadVisibleTicket, type Viewer } from './access.ts';
import { afterTicketChange } from './auto-assign.ts';
import { acceptedGreeting, ratingRequest, transferNotice } from './automatic-messages.ts';
import { otherOpenTicketError } from './create.ts';
import { historyItems } from './history.ts';
import { publishTicketChange } from './notify.ts';
import { presentTickets } from './present-page.ts';
import { setTicketSnooze, wakePatch } from './snooze.ts';

export class TicketChangedError extends ConflictError {
  constructor() {
    super('ERR_TICKET_CHANGED');
  }
}

type Action = 'accept' | 'return' | 'resolve' | 'reopen' | 'transfer' | 'edit';

interface Outgoing {
  body: string;
  /** Posted in this attendant's name; a system message (bot) otherwise. */
  userId?: number;
  /** The thread's label: the accept greeting, or an automatic notice. */
  origin: MessageOrigin;
}

interface Decision {
  action: Action;
  patch: TicketStatePatch;
  kinds: TicketHistoryKind[];
  messages: Outgoing[];
}

const integrationPatch = (input: UpdateTicketInput): TicketStatePatch => ({
  ...(input.useIntegration !== undefined ? { useIntegration: input.useIntegration } : {}),
  ...(input.promptId !== undefined ? { promptId: input.promptId || null } : {}),
  ...(input.integrationId !== undefined ? { integrationId: input.integrationId || null } : {}),
});

/** Which action the request asks for, from where the ticket is now. */
export function classify(ticket: Pick<TicketRecord, 'status' | 'queueId' | 'userId'>, input: UpdateTicketInput, callerId: number): Action {
  const target: TicketStatus = input.status ?? ticket.status;
  const queueChange = input.queueId !== undefined && input.queueId !== ticket.queueId;
  if (ticket.status !== 'closed' && target === 'closed') return 'resolve';
  if (ticket.status === 'closed') return target === 'closed' ? 'edit' : 'reopen';
  if (!queueChange && ticket.status === 'pending' && target === 'open' && (input.userId ?? callerId) === callerId) return 'accept';
  if (!queueChange && ticket.status === 'open' && target === 'pending') return 'return';
  if (queueChange || (input.userId !== undefined && input.userId !== ticket.userId)) return 'transfer';
  return 'edit';
}

async function decide(viewer: Viewer, ticket: TicketRecord, input: UpdateTicketInput): Promise<Decision> {
  const { companyId } = ticket;
  const action = classify(ticket, input, viewer.userId);
  const integration = integrationPatch(input);
  const notGroup = !ticket.isGroup;

  switch (action) {
    case 'accept': {
      const greet = notGroup && (await getCompanySetting(companyId, 'sendGreetingAccepted')) === 'enabled';
      return {
        action,
        // BEHAVIOUR: the unread count goes back to 0 when an attendant takes the ticket.
        // An attendant taking the ticket stops its prompt or integration (issue 13); the ids stay, so it does not take over again this cycle.
        patch: {
          ...integration,
          status: 'open',
          userId: viewer.userId,
          chatbot: false,
          bot: null,
          unreadMessages: 0,
          useIntegration: false,
        },
        kinds: [],
        messages: greet
          ? [{ body: acceptedGreeting(ticket.contact.name, viewer.user.name), userId: viewer.userId, origin: 'greeting' }]
          : [],
      };
    }
    case 'return':
      return { action, patch: { ...integration, status: 'pending', userId: null }, kinds: ['returned'], messages: [] };
    case 'reopen': {
      const queueId = input.queueId !== undefined ? await existingQueueId(companyId, input.queueId) : ticket.queueId;
      return {
        action,
        patch: { ...integration, status: 'open', userId: viewer.userId, queueId, awaitingRating: false, chatbot: false, bot: null },
        kinds: ['reopened'],
        messages: [],
      };
    }
    case 'resolve': {
      // The integration stops with the conversation (SPEC 4: resolve sends them as false).
      const stop: TicketStatePatch = { useIntegration: false, promptId: null, integrationId: null, chatbot: false, bot: null };
      const connection = await getConnection(companyId, ticket.whatsappId);
      const rate = notGroup && !ticket.awaitingRating && (await getCompanySetting(companyId, 'userRating')) === 'enabled';
      if (rate) {
        // BEHAVIOUR: ask and wait; the inbound pipeline (chatbot/decide decideRating) stores the
        // 1-3 reply, sends the completion message and closes the ticket.
        return {
          action,
          patch: { ...stop, awaitingRating: true, userId: ticket.userId ?? viewer.userId },
          kinds: ['ratingRequested'],
          messages: [{ body: ratingRequest(connection?.ratingMessage ?? ''), origin: 'automatic' }],
        };
      }
      const queue = ticket.queueId === null ? undefined : await getQueue(companyId, ticket.queueId);
      const completion = (queue?.complationMessage || connection?.complationMessage || '').trim();
      return {
        action,
        patch: { ...stop, status: 'closed', awaitingRating: false, userId: ticket.userId ?? viewer.userId },
        kinds: [],
        messages: notGroup && completion ? [{ body: completion, origin: 'automatic' }] : [],
      };
    }
    case 'transfer': {
      const queueId = input.queueId !== undefined ? await existingQueueId(companyId, input.queueId) : ticket.queueId;
      const user = input.userId ? await getUser(companyId, input.userId) : undefined;
      if (input.userId && !user) throw new NotFoundError('ERR_NO_USER_FOUND');
      const patch: TicketStatePatch = user
        ? { ...integration, queueId, userId: user.id, status: input.status === 'pending' ? 'pending' : 'open', chatbot: false, bot: null }
        : { ...integration, queueId, userId: null, status: 'pending', chatbot: false, bot: null };
      const notice = notGroup && (await getCompanySetting(companyId, 'sendMsgTransfTicket')) === 'enabled';
      const queueName = queueId === null ? undefined : (await getQueue(companyId, queueId))?.name;
      return {
        action,
        patch,
        kinds: ['transferred'],
        messages: notice ? [{ body: transferNotice({ userName: user?.name, queueName }), origin: 'automatic' }] : [],
      };
    }
    case 'edit':
      return { action, patch: integration, kinds: [], messages: [] };
  }
}

async function existingQueueId(companyId: number, queueId: number | null): Promise<number | null> {
  if (queueId === null) return null;
  if (!(await getQueue(companyId, queueId))) throw new ValidationError('queueId', 'Queue not found');
  return queueId;
}

/**
 * Applies the request to the ticket as read. Exposed with the ticket as an argument so a test can
 * hand it a stale read and see the 409.
 */
export async function applyTicketUpdate(
  viewer: Viewer,
  ticket: TicketRecord,
  input: UpdateTicketInput,
  effects: Effects = defaultEffects,
): Promise<Ticket> {
  // A stale view asking to accept a ticket someone else already took must not steal it.
  if (input.status === 'open' && ticket.status === 'open' && ticket.userId !== viewer.userId && input.queueId === undefined) {
    if ((input.userId ?? viewer.userId) === viewer.userId) throw new TicketChangedError();
  }
  if (input.whatsappId != null && input.whatsappId !== ticket.whatsappId) {
    // The connection is part of the (contact, connection) slot: moving it is not supported here.
    throw new ValidationError('whatsappId', 'The ticket connection cannot be changed');
  }
  const decision = await decide(viewer, ticket, input);
  const now = effects.now();
  const messages: MessageRecord[] = [];
  for (const [i, outgoing] of decision.messages.entries()) {
    const at = new Date(now.getTime() + i);
    messages.push(
      await buildOutgoingMessage(
        {
          companyId: ticket.companyId,
          ticket,
          body: outgoing.body,
          userId: outgoing.userId,
          bot: !outgoing.userId,
          origin: outgoing.origin,
        },
        at,
      ),
    );
  }
  // Acting on a snoozed ticket wakes it (snooze.ts), in this same change.
  const wake = wakePatch(decision.action === 'edit' ? { ...ticket, snoozedUntil: null } : ticket);
  if (wake.extra.length) decision.kinds.push('unsnoozed');
  const patch: TicketStatePatch = { ...decision.patch, ...wake.patch };
  const last = messages.at(-1);
  if (last) Object.assign(patch, { lastMessage: last.body, lastMessageAt: Date.parse(last.createdAt), lastMessageDeleted: false });
  if (!Object.keys(patch).length) return (await presentTickets(ticket.companyId, [ticket]))[0] as Ticket;

  const after = { ...ticket, ...patch };
  const history = historyItems(decision.kinds, ticket, after, viewer.userId, now.toISOString());
  let next: TicketRecord;
  try {
    next = await updateTicketState(ticket, patch, [...history, ...wake.extra, ...messages.flatMap((message) => messageItems(message))]);
  } catch (error) {
    if (error instanceof StaleTicketError) throw new TicketChangedError();
    if (error instanceof SlotTakenError) throw await otherOpenTicketError(ticket.companyId, ticket.contactId, ticket.whatsappId);
    throw error;
  }
  const presented = (await presentTickets(next.companyId, [next]))[0] as Ticket;
  for (const message of messages) await effects.sendCommand(await sendCommandFor(message, next));
  const contact = messages.length ? await getContact(next.companyId, next.contactId) : undefined;
  await publishTicketChange(effects, ticket, presented, contact ? { messages, contact } : undefined);
  // A seat freed (resolve, transfer away, return) or a ticket entered a queue's line (issue 22 §2).
  await afterTicketChange(effects, ticket, next);
  return presented;
}

export async function updateTicketFor(
  viewer: Viewer,
  ticketId: number,
  input: UpdateTicketInput,
  effects: Effects = defaultEffects,
): Promise<Ticket> {
  const { snoozeUntil, ...change } = input;
  if (snoozeUntil === undefined) return applyTicketUpdate(viewer, await loadVisibleTicket(viewer, ticketId), input, effects);
  // A snooze is a change of its own: mixed with a status or transfer, which would win is anyone's guess.
  if (Object.values(change).some((value) => value !== undefined))
    throw new ValidationError('snoozeUntil', 'Snooze is changed on its own, without other fields');
  return setTicketSnooze(viewer, await loadVisibleTicket(viewer, ticketId), snoozeUntil, effects);
}
