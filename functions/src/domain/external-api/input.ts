/**
 * The external API's send request (POST /api/messages/send): JSON `{number, body}`, or the same
 * fields in a multipart form with `medias`. Declared apart from the handler so the API's OpenAPI
 * document (declarations/http-requests.ts) describes the very schema the handler validates with.
 */
import * as z from 'zod';
import { MESSAGE_BODY_MAX } from '#domain/outbound/input';

/**
 * A private note is the inbox's (POST /messages/{ticketId}); here every text goes to the contact, so
 * a client that asks for one is refused rather than having its note sent to the customer.
 */
export const NOT_A_NOTE = 'Private notes exist only in the inbox: this API sends every text to the contact';

export const externalSendJsonSchema = z.object({
  number: z.union([z.string().max(64), z.number().int().nonnegative()]).transform(String),
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
  isPrivate: z.literal(false, { error: NOT_A_NOTE }).optional(),
});
