/** Announcements (SPEC 7 "Dashboard, chat, announcements, helps"): super users write, every user reads the active ones. */
import '#adapters/wiring';
import { createAnnouncementSchema, listAnnouncementsQuerySchema, updateAnnouncementSchema } from '#contracts/announcements';
import {
  attachUploadedAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  deleteAnnouncementMedia,
  getAnnouncementFor,
  grantAnnouncementUpload,
  listAnnouncementsFor,
  updateAnnouncement,
  uploadAnnouncementMedia,
} from '#domain/announcements/announcements';
import { uploadedAttachmentSchema, uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('announcements', {
  'GET /announcements': async (ctx) =>
    listAnnouncementsFor(requireIdentity(ctx), parseInput(listAnnouncementsQuerySchema, ctx.query, 'query')),
  'GET /announcements/{id}': async (ctx) => getAnnouncementFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /announcements': async (ctx) => created(await createAnnouncement(parseInput(createAnnouncementSchema, ctx.body ?? {}))),
  'PUT /announcements/{id}': async (ctx) =>
    updateAnnouncement(requireIdentity(ctx), parseId(ctx.params), parseInput(updateAnnouncementSchema, ctx.body ?? {})),
  'DELETE /announcements/{id}': async (ctx) => {
    await deleteAnnouncement(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /announcements/{id}/media-upload': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return uploadAnnouncementMedia(identity, id, form.files);
    // JSON: the key of an image the browser uploaded itself (POST /announcements/{id}/uploads).
    return attachUploadedAnnouncementMedia(identity, id, parseInput(uploadedAttachmentSchema, ctx.body ?? {}).key);
  },
  'POST /announcements/{id}/uploads': async (ctx) =>
    grantAnnouncementUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /announcements/{id}/media-upload': async (ctx) => deleteAnnouncementMedia(requireIdentity(ctx), parseId(ctx.params)),
});
