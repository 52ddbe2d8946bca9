/**
 * Messages of a ticket (SPEC 7 "Tickets and messages"): the conversation page, the attendant's
 * sends (JSON text with an optional quote, or multipart `medias`, or keys of files the browser
 * uploaded straight to the bucket through POST /messages/{id}/uploads), deleting our own messages and
 * sending a failed one again (POST /messages/{id}/retry). JSON `isPrivate: true` makes the text a
 * private note (outbound/note.ts): kept in the thread, never sent; a multipart body cannot be one. `{id}` is the ticket id for GET/POST and
 * the message id for DELETE and retry (one name per path level). The caller's mentions (notes of
 * colleagues naming them, domain/mentions) are here too: GET /mentions, POST /mentions/read.
 */
import '#adapters/wiring';
import { ValidationError } from '#commons/errors';
import { uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import { listMentionsFor, readMentionsFor, readMentionsSchema } from '#domain/mentions/mentions';
import { type AttendantSend, deleteAttendantMessage, retryAttendantMessage, sendAttendantMessage } from '#domain/outbound/attendant';
import { formFlag, listMessagesQuerySchema, messageIdSchema, sendMessageJsonSchema } from '#domain/outbound/input';
import { listTicketMessages } from '#domain/outbound/list';
import { addPrivateNote } from '#domain/outbound/note';
import { createUpload } from '#domain/outbound/uploads';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import type { RequestContext } from '#http/types';
import { parseId, parseInput } from '#http/validate';

async function readSend(ctx: RequestContext): Promise<AttendantSend & { isPrivate?: boolean; mentions?: number[] }> {
  const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
  if (form) {
    // A note is text (JSON): any isPrivate here is refused rather than read as a flag, so a
    // misspelt "yes" never sends to the phone what was meant to stay private.
    if (form.fields.isPrivate !== undefined) throw new ValidationError('isPrivate', 'A private note is text only');
    if (form.fields.mentions !== undefined) throw new ValidationError('mentions', 'Only a private note mentions colleagues');
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
    isPrivate: input.isPrivate,
    mentions: input.mentions,
  };
}

export const handler = httpHandler('messages', {
  'GET /messages/{id}': async (ctx) =>
    listTicketMessages(requireIdentity(ctx), parseId(ctx.params), parseInput(listMessagesQuerySchema, ctx.query, 'query')),
  'POST /messages/{id}': async (ctx) => {
    const identity = requireIdentity(ctx);
    const ticketId = parseId(ctx.params);
    const send = await readSend(ctx);
    if (send.isPrivate) {
      const note = {
        body: send.bodies[0] ?? '',
        hasMedia: Boolean(send.mediaUrls?.length),
        quotedMessageId: send.quotedMessageId,
        mentions: send.mentions,
      };
      return { messages: [await addPrivateNote(identity, ticketId, note)] };
    }
    // A message to the customer mentions nobody: an `@name` meant for colleagues would reach the phone.
    if (send.mentions?.length) throw new ValidationError('mentions', 'Only a private note mentions colleagues');
    return { messages: await sendAttendantMessage(identity, ticketId, send) };
  },
  'POST /messages/{id}/uploads': async (ctx) =>
    createUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /messages/{id}': async (ctx) => deleteAttendantMessage(requireIdentity(ctx), parseInput(messageIdSchema, ctx.params.id, 'id')),
  'POST /messages/{id}/retry': async (ctx) => retryAttendantMessage(requireIdentity(ctx), parseInput(messageIdSchema, ctx.params.id, 'id')),
  'GET /mentions': async (ctx) => listMentionsFor(requireIdentity(ctx)),
  'POST /mentions/read': async (ctx) => readMentionsFor(requireIdentity(ctx), parseInput(readMentionsSchema, ctx.body ?? {})),
});
