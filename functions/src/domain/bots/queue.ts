/**
 * The inbound pipeline's part in a takeover: when the prompt or integration holds the ticket after
 * the chatbot's decision, the contact's message is queued for its turn. The provider is never called
 * here: the pipeline stays in milliseconds whatever the provider takes. Queued again on a replay:
 * the queue's dedupe id is the message, so the turn runs once.
 *
 * The queue is a port (`BotTurnSender`): every entry whose code reaches it wires the SQS adapter
 * (adapters/bot-turns.ts) through adapters/wiring.ts; tests wire their own.
 */
import type { MessageRecord } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { botHolds } from './holds.ts';
import type { BotTurnMessage } from './turn-message.ts';

export type BotTurnSender = (turn: BotTurnMessage) => Promise<void>;

let sender: BotTurnSender | undefined;

/** Wires the transport (the handler at its start, a test with its recorder); returns the previous one. */
export function setBotTurnSender(next: BotTurnSender | undefined): BotTurnSender | undefined {
  const previous = sender;
  sender = next;
  return previous;
}

/** True when a turn was queued. */
export async function queueBotTurnIfHeld(ticket: TicketRecord, message: MessageRecord): Promise<boolean> {
  if (message.fromMe || !botHolds(ticket)) return false;
  if (!sender) throw new Error('No bot turn sender wired: the entry imports #adapters/wiring (a test sets its own)');
  await sender({ companyId: ticket.companyId, ticketId: ticket.id, messageId: message.id });
  return true;
}
