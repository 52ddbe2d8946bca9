/** POST /mentions/read's body, apart from the use case (mentions.ts) so the API's document reads it without storage. */
import * as z from 'zod';

export const readMentionsSchema = z.object({
  ticketId: z.int('ticketId must be a ticket id').positive('ticketId must be a ticket id'),
});
