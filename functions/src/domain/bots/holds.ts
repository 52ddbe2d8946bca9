import { botApplies } from '#domain/chatbot/decide';
import type { TicketRecord } from '#storage/tickets/record';

/** A prompt or integration holds the ticket and may talk: pending, nobody attending, not a group. */
export const botHolds = (ticket: TicketRecord): boolean => ticket.useIntegration && botApplies(ticket);
