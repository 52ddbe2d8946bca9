/** Scheduled messages (SPEC 7 "Quick messages, schedules"); the plan's useSchedules is checked by the route table. */
import '#adapters/wiring';
import { createScheduleSchema, listSchedulesQuerySchema, updateScheduleSchema } from '#contracts/schedule-requests';
import { uploadedAttachmentSchema, uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import {
  attachUploadedScheduleMedia,
  createScheduleFor,
  deleteScheduleFor,
  deleteScheduleMedia,
  getScheduleFor,
  grantScheduleUpload,
  listSchedulesFor,
  updateScheduleFor,
  uploadScheduleMedia,
} from '#domain/schedules/schedules';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('schedules', {
  'GET /schedules': async (ctx) => listSchedulesFor(requireIdentity(ctx), parseInput(listSchedulesQuerySchema, ctx.query, 'query')),
  'GET /schedules/{id}': async (ctx) => getScheduleFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /schedules': async (ctx) =>
    created(await createScheduleFor(requireIdentity(ctx), parseInput(createScheduleSchema, ctx.body ?? {}))),
  'PUT /schedules/{id}': async (ctx) =>
    updateScheduleFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateScheduleSchema, ctx.body ?? {})),
  'DELETE /schedules/{id}': async (ctx) => {
    await deleteScheduleFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /schedules/{id}/media-upload': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return uploadScheduleMedia(identity, id, form.files);
    // JSON: the key of a file the browser uploaded itself (POST /schedules/{id}/uploads).
    return attachUploadedScheduleMedia(identity, id, parseInput(uploadedAttachmentSchema, ctx.body ?? {}).key);
  },
  'POST /schedules/{id}/uploads': async (ctx) =>
    grantScheduleUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /schedules/{id}/media-upload': async (ctx) => deleteScheduleMedia(requireIdentity(ctx), parseId(ctx.params)),
});
