/** File lists (SPEC 7 "Campaigns, lists, files"): CRUD and their files (domain/file-lists). */
import '#adapters/wiring';
import { attachFileListUploadsSchema, fileListInputSchema, listFileListsQuerySchema, updateFileListSchema } from '#contracts/file-lists';
import {
  attachFileListUploads,
  createFileListFor,
  deleteFileListFor,
  getFileListFor,
  grantFileListUpload,
  listFileListsFor,
  updateFileListFor,
  uploadFileListFiles,
} from '#domain/file-lists/file-lists';
import { uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('files', {
  'GET /files': async (ctx) => listFileListsFor(requireIdentity(ctx), parseInput(listFileListsQuerySchema, ctx.query, 'query')),
  'GET /files/{id}': async (ctx) => getFileListFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /files': async (ctx) => created(await createFileListFor(requireIdentity(ctx), parseInput(fileListInputSchema, ctx.body ?? {}))),
  'PUT /files/{id}': async (ctx) =>
    updateFileListFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateFileListSchema, ctx.body ?? {})),
  'DELETE /files/{id}': async (ctx) => {
    await deleteFileListFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /files/uploadList/{id}': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return uploadFileListFiles(identity, id, form);
    // JSON: keys of files the browser uploaded itself (POST /files/uploadList/{id}/uploads).
    return attachFileListUploads(identity, id, parseInput(attachFileListUploadsSchema, ctx.body ?? {}));
  },
  'POST /files/uploadList/{id}/uploads': async (ctx) =>
    grantFileListUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
});
