/** Quick messages (SPEC 7 "Quick messages"): the caller's own and the company's geral ones. */
import '#adapters/wiring';
import { createQuickMessageSchema, listQuickMessagesQuerySchema, updateQuickMessageSchema } from '#contracts/quick-message-requests';
import { uploadedAttachmentSchema, uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import {
  attachUploadedQuickMessageMedia,
  createQuickMessageFor,
  deleteQuickMessageFor,
  deleteQuickMessageMedia,
  getQuickMessageFor,
  grantQuickMessageUpload,
  listQuickMessagesFor,
  listQuickRepliesFor,
  updateQuickMessageFor,
  uploadQuickMessageMedia,
} from '#domain/quick-messages/quick-messages';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('quick-messages', {
  'GET /quick-messages': async (ctx) =>
    listQuickMessagesFor(requireIdentity(ctx), parseInput(listQuickMessagesQuerySchema, ctx.query, 'query')),
  'GET /quick-messages/list': async (ctx) => listQuickRepliesFor(requireIdentity(ctx)),
  'GET /quick-messages/{id}': async (ctx) => getQuickMessageFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /quick-messages': async (ctx) =>
    created(await createQuickMessageFor(requireIdentity(ctx), parseInput(createQuickMessageSchema, ctx.body ?? {}))),
  'PUT /quick-messages/{id}': async (ctx) =>
    updateQuickMessageFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateQuickMessageSchema, ctx.body ?? {})),
  'DELETE /quick-messages/{id}': async (ctx) => {
    await deleteQuickMessageFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /quick-messages/{id}/media-upload': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return uploadQuickMessageMedia(identity, id, form.files);
    // JSON: the key of a file the browser uploaded itself (POST /quick-messages/{id}/uploads).
    return attachUploadedQuickMessageMedia(identity, id, parseInput(uploadedAttachmentSchema, ctx.body ?? {}).key);
  },
  'POST /quick-messages/{id}/uploads': async (ctx) =>
    grantQuickMessageUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /quick-messages/{id}/media-upload': async (ctx) => deleteQuickMessageMedia(requireIdentity(ctx), parseId(ctx.params)),
});
