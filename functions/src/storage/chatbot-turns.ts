/**
 * A chatbot turn (domain/chatbot/run.ts), committed as ONE transaction, in this order:
 *
 *   ticket       the state change (tickets/tickets.ts ticketStateUpdate: conditional on the revision the bot
 *                decided on) with its slot and tag link moves (slotTransition); absent when the bot
 *                only replies
 *   replies      pending outgoing messages (messages/messages.ts messageItems)
 *   history      the change's ticket history events (tickets/history.ts historyPut), when the caller has any
 *   bot done     the inbound message's wa link (messages/messages.ts waLinkBotDone: conditional on not being
 *                done yet), always last
 *
 * So a retried event never commits the bot twice, and a concurrent change to the ticket (an
 * attendant accepting it) fails the first condition and sends the bot back to decide again.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, type TransactItem, table, transactionCancellationCodes } from './db.ts';
import { type MessageRecord, messageItems } from './messages/messages.ts';
import { waLinkBotDone } from './messages/wa-links.ts';
import type { TicketRecord, TicketStatePatch } from './tickets/record.ts';
import { slotTransition, stateCounterItems, ticketPk, ticketStateUpdate } from './tickets/tickets.ts';

export interface ChatbotTurn {
  ticket: TicketRecord;
  /** Empty when the ticket's state does not change. */
  patch: TicketStatePatch;
  replies: MessageRecord[];
  /** The inbound message's WhatsApp link, marked done with the replies' ids. */
  inbound: { companyId: number; whatsappId: number; waId: string };
  now: Date;
  /** History events of the change (a bot's hand-back or failure), committed with it. */
  history?: TransactItem[];
}

/**
 * `committed` with the ticket as written; `alreadyDone` when another run committed the bot for this
 * message (nothing written); `conflict` when the first write's condition failed (the ticket changed
 * since it was read: read it again and decide again).
 */
export type ChatbotTurnOutcome = { status: 'committed'; ticket: TicketRecord } | { status: 'alreadyDone' } | { status: 'conflict' };

export async function commitChatbotTurn(turn: ChatbotTurn): Promise<ChatbotTurnOutcome> {
  const { inbound, replies } = turn;
  const done = waLinkBotDone(
    inbound.companyId,
    inbound.whatsappId,
    inbound.waId,
    replies.map((reply) => reply.id),
  );
  return commitTurn(turn, done);
}

/**
 * A prompt's or integration's answer to one inbound message (domain/bots/turn.ts), committed the same
 * way: the ticket's change (conditional on its revision), the answers, and a once-per-message mark on
 * the ticket (`BOTTURN#<message id>`), so a redelivered turn stores and sends nothing twice.
 */
export function commitBotTurn(turn: Omit<ChatbotTurn, 'inbound'> & { inboundMessageId: string }): Promise<ChatbotTurnOutcome> {
  const done: TransactItem = {
    Put: {
      TableName: table(),
      Item: {
        pk: ticketPk(turn.ticket.companyId, turn.ticket.id),
        sk: `BOTTURN#${turn.inboundMessageId}`,
        entity: 'botTurn',
        replyIds: turn.replies.map((reply) => reply.id),
        at: turn.now.toISOString(),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return commitTurn(turn, done);
}

async function commitTurn(turn: Omit<ChatbotTurn, 'inbound'>, done: TransactItem): Promise<ChatbotTurnOutcome> {
  const { ticket, patch, replies } = turn;
  const items: TransactItem[] = [];
  let next = ticket;
  if (Object.keys(patch).length) {
    const update = await ticketStateUpdate(ticket, patch, turn.now.toISOString());
    next = update.next;
    items.push(update.item, ...slotTransition(ticket, next), ...(await stateCounterItems(ticket, next)));
  }
  items.push(...replies.flatMap((reply) => messageItems(reply)), ...(turn.history ?? []), done);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return { status: 'committed', ticket: next };
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (!codes) throw error;
    if (codes.at(-1) === 'ConditionalCheckFailed') return { status: 'alreadyDone' };
    if (codes[0] !== 'ConditionalCheckFailed') throw error;
    return { status: 'conflict' };
  }
}
