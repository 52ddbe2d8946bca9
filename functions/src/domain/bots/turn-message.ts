/** What the inbound pipeline queues for a prompt's or integration's turn (adapters/bot-turns.ts). */
import * as z from 'zod';

export const botTurnMessageSchema = z.object({
  companyId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  /** The contact's message to answer. */
  messageId: z.string().min(1).max(64),
});

export type BotTurnMessage = z.infer<typeof botTurnMessageSchema>;
