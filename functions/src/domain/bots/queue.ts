/**
 * The inbound pipeline's part in a takeover: when the prompt or integration holds the ticket after
 * the chatbot's decision, the contact's message is queued for its turn. The provider is never called
 * here: the pipeline stays in milliseconds whatever the provider takes. Queued again on a replay:
 * the queue's dedupe id is the message, so the turn runs once.
 *
 * The queue is a port (`BotTurnSender`): every entry whose code reaches it wires the SQS adapter
 * (adapters/bot-turns.ts) through adapters/wiring.ts; tests wire their own.
 */
import { port } from '#domain/port';
import type { MessageRecord } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { botHolds } from './holds.ts';
import type { BotTurnMessage } from './turn-message.ts';

export type BotTurnSender = (turn: BotTurnMessage) => Promise<void>;

const sender = port<BotTurnSender>('bot turn sender');

/** Wires the transport (adapters/wiring.ts, a test with its recorder); returns the previous one. */
export const setBotTurnSender = sender.set;

/** True when a turn was queued. */
export async function queueBotTurnIfHeld(ticket: TicketRecord, message: MessageRecord): Promise<boolean> {
  if (message.fromMe || !botHolds(ticket)) return false;
  await sender.wired()({ companyId: ticket.companyId, ticketId: ticket.id, messageId: message.id });
  return true;
}
