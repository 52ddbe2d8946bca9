/**
 * File lists (SPEC 2 "Files", 3 "File list", 5, 7 "Campaigns, lists, files"): every user of the
 * company sees them (the campaign dialog picks one); only admins change them (the Files page is in
 * the admin part of the menu), per the route table. A campaign naming a list sends each contact its
 * files after the message (the shipping engine reads storage/file-lists.ts getFileList).
 *
 * Files go to the private media bucket under `<companyId>/files/<listId>/<upload>/<name>`
 * (domain/media/keys.ts), as message media does: multipart for small files, a presigned PUT and then
 * the key for the rest. An option's replaced or removed file, and every file of a deleted list, is
 * removed from the bucket once no record names it. A list a scheduled or running campaign sends is
 * not deleted under it (409 ERR_FILE_LIST_IN_USE).
 *
 * Every change is published on `company-{id}-file` with the record (a delete with the id).
 */

import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import { channels, type RecordEvent } from '#contracts/channels';
import {
  type AttachFileListUploadsInput,
  FILE_LISTS_PAGE_SIZE,
  type FileList,
  type FileListInput,
  type FileListsPage,
  type ListFileListsQuery,
  MAX_FILE_LIST_OPTIONS,
  type UpdateFileListInput,
} from '#contracts/file-lists';
import type { MediaUpload } from '#contracts/messages';
import type { Identity } from '#domain/identity';
import { attachmentKey, grantAttachmentUpload, type UploadRequest, uploadedAttachment } from '#domain/media/attachments';
import { deleteMedia, putMedia } from '#domain/media/bucket';
import { allowedFileType } from '#domain/media/file-types';
import { mediaRoute, safeFileName } from '#domain/media/keys';
import type { MultipartForm } from '#domain/media/multipart';
import { publishToCompany } from '#realtime/publisher';
import { listCampaigns } from '#storage/campaigns/campaigns';
import { foldSearch } from '#storage/contact-lists/items';
import * as store from '#storage/file-lists';

/** Racing writes of one list (two uploads at once) re-read and apply again, this many times at most. */
const WRITE_ATTEMPTS = 5;

const publish = (companyId: number, event: RecordEvent<FileList>) => publishToCompany(companyId, channels.fileList(companyId), event);

const prefixOf = (companyId: number, id: number) => `${companyId}/files/${id}`;

export const presentFileList = (record: store.FileListRecord): FileList => ({
  id: record.id,
  companyId: record.companyId,
  name: record.name,
  message: record.message,
  userId: record.userId,
  options: record.options.map((option) => ({
    id: option.id,
    name: option.name,
    path: option.mediaPath ? mediaRoute(option.mediaPath) : null,
    mediaType: option.mediaType || null,
    mediaName: option.mediaName || null,
  })),
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

async function findFileList(companyId: number, id: number): Promise<store.FileListRecord> {
  const record = await store.getFileList(companyId, id);
  if (!record) throw new NotFoundError('ERR_NOT_FOUND');
  const { files: _files, ...list } = record;
  return list;
}

/**
 * Reads the list, applies `change` and writes it on condition nobody wrote in between; on a race,
 * again from a fresh read. `change` returns the new list and the bucket keys it stopped naming.
 */
async function rewrite(
  companyId: number,
  id: number,
  change: (before: store.FileListRecord) => { after: Omit<store.FileListRecord, 'revision'>; dropped: string[] },
): Promise<store.FileListRecord> {
  for (let attempt = 1; ; attempt++) {
    const before = await findFileList(companyId, id);
    const { after, dropped } = change(before);
    try {
      const written = await store.replaceFileList(before, after);
      await removeObjects(dropped);
      await publish(companyId, { action: 'update', record: presentFileList(written) });
      return written;
    } catch (error) {
      if (!(error instanceof store.FileListChangedError) || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}

/** Objects no record names any more; a failure leaves an orphan to log, never a list naming a missing file. */
async function removeObjects(keys: string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => deleteMedia(key)));
  for (const [i, result] of results.entries())
    if (result.status === 'rejected') logger.warn('file list object not removed', { key: keys[i], error: String(result.reason) });
}

/** By name (accents and case ignored), pages of FILE_LISTS_PAGE_SIZE. */
export async function listFileListsFor(identity: Identity, query: ListFileListsQuery): Promise<FileListsPage> {
  const needle = foldSearch(query.searchParam);
  const all = (await store.listFileLists(identity.companyId))
    .filter((record) => !needle || foldSearch(record.name).includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  const start = (query.pageNumber - 1) * FILE_LISTS_PAGE_SIZE;
  return {
    files: all.slice(start, start + FILE_LISTS_PAGE_SIZE).map(presentFileList),
    hasMore: all.length > start + FILE_LISTS_PAGE_SIZE,
  };
}

export async function getFileListFor(identity: Identity, id: number): Promise<FileList> {
  return presentFileList(await findFileList(identity.companyId, id));
}

export async function createFileListFor(identity: Identity, input: FileListInput): Promise<FileList> {
  const { companyId } = identity;
  if (input.options.some((option) => option.id !== undefined))
    throw new ValidationError('options', 'A new list has no options yet: leave out their ids');
  const at = new Date().toISOString();
  const record = await store.createFileList({
    id: await store.newFileListId(companyId),
    companyId,
    name: input.name,
    message: input.message,
    userId: identity.userId,
    options: input.options.map((option, i) => ({ id: i + 1, name: option.name, mediaPath: '', mediaName: '', mediaType: '' })),
    nextOptionId: input.options.length + 1,
    revision: 1,
    createdAt: at,
    updatedAt: at,
  });
  const list = presentFileList(record);
  await publish(companyId, { action: 'create', record: list });
  return list;
}

/** `options`, when given, is the whole new set: ids keep their option (and file), the rest are new, the missing go. */
export async function updateFileListFor(identity: Identity, id: number, input: UpdateFileListInput): Promise<FileList> {
  const written = await rewrite(identity.companyId, id, (before) => {
    let nextOptionId = before.nextOptionId;
    let options = before.options;
    if (input.options) {
      const kept = new Map(before.options.map((option) => [option.id, option]));
      options = input.options.map((option, i) => {
        if (option.id === undefined) return { id: nextOptionId++, name: option.name, mediaPath: '', mediaName: '', mediaType: '' };
        const existing = kept.get(option.id);
        if (!existing) throw new ValidationError(`options.${i}.id`, 'No such option in this list');
        return { ...existing, name: option.name };
      });
      if (new Set(options.map((option) => option.id)).size !== options.length)
        throw new ValidationError('options', 'An option is named twice');
    }
    const names = new Set(options.map((option) => option.mediaPath));
    return {
      after: {
        ...before,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.message !== undefined ? { message: input.message } : {}),
        options,
        nextOptionId,
        updatedAt: new Date().toISOString(),
      },
      dropped: before.options.map((option) => option.mediaPath).filter((key) => key && !names.has(key)),
    };
  });
  return presentFileList(written);
}

export async function deleteFileListFor(identity: Identity, id: number): Promise<void> {
  const { companyId } = identity;
  await findFileList(companyId, id);
  const campaigns = await listCampaigns(companyId);
  if (campaigns.some((c) => c.fileListId === id && (c.status === 'PROGRAMADA' || c.status === 'EM_ANDAMENTO')))
    throw new ConflictError('ERR_FILE_LIST_IN_USE');
  const removed = await store.deleteFileList(companyId, id);
  await removeObjects(removed.options.map((option) => option.mediaPath).filter(Boolean));
  await publish(companyId, { action: 'delete', id });
}

interface StoredFile {
  optionId: number | undefined;
  optionName: string;
  key: string;
  name: string;
  contentType: string;
}

/** Puts the new files on their options (or new options), replacing what those options had. */
function placeFiles(before: store.FileListRecord, files: StoredFile[]) {
  let nextOptionId = before.nextOptionId;
  const options = before.options.map((option) => ({ ...option }));
  const dropped: string[] = [];
  for (const [i, file] of files.entries()) {
    let option = file.optionId === undefined ? undefined : options.find((o) => o.id === file.optionId);
    if (file.optionId !== undefined && !option) throw new ValidationError(`options.${i}.id`, 'No such option in this list');
    if (!option) {
      option = { id: nextOptionId++, name: file.optionName, mediaPath: '', mediaName: '', mediaType: '' };
      options.push(option);
    }
    if (file.key && options.some((o) => o !== option && o.mediaPath === file.key))
      throw new ValidationError(`options.${i}.key`, "That file is another option's");
    if (option.mediaPath && option.mediaPath !== file.key) dropped.push(option.mediaPath);
    Object.assign(option, { mediaPath: file.key, mediaName: file.name, mediaType: file.contentType });
  }
  if (options.length > MAX_FILE_LIST_OPTIONS) throw new ValidationError('files', `At most ${MAX_FILE_LIST_OPTIONS} files`);
  return { after: { ...before, options, nextOptionId, updatedAt: new Date().toISOString() }, dropped };
}

async function attach(identity: Identity, id: number, files: StoredFile[], uploadedHere: boolean): Promise<FileList> {
  try {
    return presentFileList(await rewrite(identity.companyId, id, (before) => placeFiles(before, files)));
  } catch (error) {
    // Nothing names the objects this request stored: they go, so a refused upload leaves nothing behind.
    if (uploadedHere) await removeObjects(files.map((file) => file.key));
    throw error;
  }
}

const formIds = (form: MultipartForm): (number | undefined)[] =>
  (form.fields.id ?? []).map((value, i) => {
    if (value.trim() === '') return undefined;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < 1) throw new ValidationError(`id.${i}`, 'Invalid id');
    return parsed;
  });

/**
 * POST /files/uploadList/{id}, multipart (SPEC 7: fileId, typeArch, files, mediaType, name, id): the
 * i-th file goes to the option named by the i-th `id` field, or, without one, to a new option named
 * by the i-th `name` field or the file's own name. Checked whole before anything is stored.
 */
export async function uploadFileListFiles(identity: Identity, id: number, form: MultipartForm): Promise<FileList> {
  const { companyId } = identity;
  const before = await findFileList(companyId, id);
  const files = form.files;
  if (!files.length) throw new ValidationError('files', 'Required');
  const ids = formIds(form);
  const names = form.fields.name ?? [];
  for (const [i, file] of files.entries()) if (!file.data.length) throw new ValidationError(`files.${i}`, 'Empty file');
  const planned = files.map((file, i) => ({
    file,
    contentType: allowedFileType(file.filename, file.mimetype, `files.${i}`),
    optionId: ids[i],
    optionName: (names[i] ?? '').trim().slice(0, 100) || safeFileName(file.filename),
  }));
  // Refuse unknown options and too many files before a byte reaches the bucket.
  placeFiles(
    before,
    planned.map((p) => ({ optionId: p.optionId, optionName: p.optionName, key: '', name: '', contentType: '' })),
  );
  const stored: StoredFile[] = [];
  try {
    for (const p of planned) {
      const key = attachmentKey(prefixOf(companyId, id), p.file.filename);
      await putMedia(key, p.file.data, p.contentType);
      stored.push({
        optionId: p.optionId,
        optionName: p.optionName,
        key,
        name: key.split('/').at(-1) ?? 'file',
        contentType: p.contentType,
      });
    }
  } catch (error) {
    await removeObjects(stored.map((file) => file.key));
    throw error;
  }
  return attach(identity, id, stored, true);
}

/** POST /files/uploadList/{id}/uploads: a presigned PUT under this list's prefix (the browser's large files). */
export async function grantFileListUpload(identity: Identity, id: number, request: UploadRequest): Promise<MediaUpload> {
  await findFileList(identity.companyId, id);
  return grantAttachmentUpload(prefixOf(identity.companyId, id), request);
}

/** POST /files/uploadList/{id} with JSON: keys of files uploaded with this list's grants, each onto its option. */
export async function attachFileListUploads(identity: Identity, id: number, input: AttachFileListUploadsInput): Promise<FileList> {
  await findFileList(identity.companyId, id);
  const files: StoredFile[] = [];
  for (const [i, option] of input.options.entries()) {
    const file = await uploadedAttachment(prefixOf(identity.companyId, id), option.key).catch((error: unknown) => {
      throw error instanceof ValidationError ? new ValidationError(`options.${i}.key`, String(error.extra.message)) : error;
    });
    files.push({ optionId: option.id, optionName: '', key: file.key, name: file.name, contentType: file.contentType });
  }
  return attach(identity, id, files, false);
}
