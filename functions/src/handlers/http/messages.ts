/**
 * Messages of a ticket (SPEC 7 "Tickets and messages"): the conversation page, the attendant's
 * sends (JSON text with an optional quote, or multipart `medias`, or keys of files the browser
 * uploaded straight to the bucket through POST /messages/{id}/uploads), deleting our own messages and
 * sending a failed one again (POST /messages/{id}/retry). `{id}` is the ticket id for GET/POST and
 * the message id for DELETE and retry (one name per path level).
 */
import { ValidationError } from '#commons/errors';
import { uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import { type AttendantSend, deleteAttendantMessage, retryAttendantMessage, sendAttendantMessage } from '#domain/outbound/attendant';
import { formFlag, listMessagesQuerySchema, messageIdSchema, sendMessageJsonSchema } from '#domain/outbound/input';
import { listTicketMessages } from '#domain/outbound/list';
import { createUpload } from '#domain/outbound/uploads';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import type { RequestContext } from '#http/types';
import { parseId, parseInput } from '#http/validate';

async function readSend(ctx: RequestContext): Promise<AttendantSend> {
  const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
  if (form) {
    const quoted = form.fields.quotedMsgId?.[0];
    if (quoted !== undefined && !messageIdSchema.safeParse(quoted).success) throw new ValidationError('quotedMsgId', 'Invalid id');
    return {
      bodies: form.fields.body ?? [],
      files: form.files,
      quotedMessageId: quoted,
      signMessage: formFlag(form.fields.signMessage),
      asVoice: formFlag(form.fields.asVoice),
    };
  }
  const input = parseInput(sendMessageJsonSchema, ctx.body ?? {});
  return {
    bodies: [input.body],
    files: [],
    // `mediaUrl` (one stored file, as quick replies send it) goes first, then `mediaUrls` in order.
    mediaUrls: [...(input.mediaUrl ? [input.mediaUrl] : []), ...(input.mediaUrls ?? [])],
    quotedMessageId: input.quotedMsg?.id,
    signMessage: input.signMessage,
    asVoice: input.asVoice,
  };
}

export const handler = httpHandler('messages', {
  'GET /messages/{id}': async (ctx) =>
    listTicketMessages(requireIdentity(ctx), parseId(ctx.params), parseInput(listMessagesQuerySchema, ctx.query, 'query')),
  'POST /messages/{id}': async (ctx) => {
    const identity = requireIdentity(ctx);
    const ticketId = parseId(ctx.params);
    return { messages: await sendAttendantMessage(identity, ticketId, await readSend(ctx)) };
  },
  'POST /messages/{id}/uploads': async (ctx) =>
    createUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /messages/{id}': async (ctx) => deleteAttendantMessage(requireIdentity(ctx), parseInput(messageIdSchema, ctx.params.id, 'id')),
  'POST /messages/{id}/retry': async (ctx) => retryAttendantMessage(requireIdentity(ctx), parseInput(messageIdSchema, ctx.params.id, 'id')),
});
