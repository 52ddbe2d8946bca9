/**
 * The inbound pipeline's part in a takeover: when the prompt or integration holds the ticket after
 * the chatbot's decision, the contact's message is queued for its turn (adapters/bot-turns.ts). The
 * provider is never called here: the pipeline stays in milliseconds whatever the provider takes.
 * Queued again on a replay: the queue's dedupe id is the message, so the turn runs once.
 */
import { sendBotTurn } from '#adapters/bot-turns';
import type { MessageRecord } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { botHolds } from './holds.ts';
import type { BotTurnMessage } from './turn-message.ts';

export type BotTurnSender = (turn: BotTurnMessage) => Promise<void>;

let sender: BotTurnSender = sendBotTurn;

/** Tests swap the transport; returns the previous one. */
export function setBotTurnSender(next: BotTurnSender | undefined): BotTurnSender {
  const previous = sender;
  sender = next ?? sendBotTurn;
  return previous;
}

/** True when a turn was queued. */
export async function queueBotTurnIfHeld(ticket: TicketRecord, message: MessageRecord): Promise<boolean> {
  if (message.fromMe || !botHolds(ticket)) return false;
  await sender({ companyId: ticket.companyId, ticketId: ticket.id, messageId: message.id });
  return true;
}
