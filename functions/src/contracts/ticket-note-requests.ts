/** Requests of the ticket notes API (SPEC 5 "Ticket note"). */
import * as z from 'zod';
import { messages } from './common.ts';

const id = z.coerce.number().int().positive();

export const createTicketNoteSchema = z
  .object({
    note: z.string({ error: messages.required }).trim().min(1, messages.required).min(2, messages.tooShort).max(5000, messages.tooLong),
    ticketId: id,
    contactId: id.optional(),
  })
  .strip();
export type CreateTicketNoteInput = z.output<typeof createTicketNoteSchema>;

export const listTicketNotesQuerySchema = z.object({ ticketId: id, contactId: id.optional() });
