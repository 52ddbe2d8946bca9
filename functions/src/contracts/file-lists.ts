/**
 * File lists (SPEC 2 "Files", 3 "File list", 5, 7 "Campaigns, lists, files"): named sets of files
 * with a message; a campaign that names one sends each contact the files after its message. What the
 * API takes and answers, shared by the functions and the web app.
 *
 * The dialog saves the list with its options (name and message; each option a name), then uploads
 * the options' files: POST /files/uploadList/{id} as multipart (fields `id` naming each file's option
 * in order, files `files`; a file without an option id becomes a new option named after it), or, for
 * files over a Lambda's payload, POST /files/uploadList/{id}/uploads for a presigned PUT and then
 * POST /files/uploadList/{id} with JSON `{ options: [{ id, key }] }`.
 */
import * as z from 'zod';
import { messages } from './common.ts';

export const FILE_LISTS_PAGE_SIZE = 20;
/**
 * Files per list. Every contact of a campaign receives all of them after the message, paced like the
 * messages themselves, so a long list multiplies a campaign's duration: 20 is already a catalogue.
 */
export const MAX_FILE_LIST_OPTIONS = 20;

/** SPEC 5 "File list: name min 3 ('nome muito curto'), required; message required." */
export const fileListMessages = { tooShort: 'nome muito curto', required: messages.required } as const;

const optionName = z.string({ error: messages.required }).trim().min(1, messages.required).max(100, messages.tooLong);
const optionId = z.coerce.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id').max(1_000_000, 'Invalid id');

/** An option as the dialog sends it: an existing one keeps its id (and its file), a new one has none. */
export const fileListOptionInputSchema = z.object({ id: optionId.optional(), name: optionName }).strip();

const fileListName = z
  .string({ error: fileListMessages.required })
  .trim()
  .min(1, fileListMessages.required)
  .min(3, fileListMessages.tooShort)
  .max(100, messages.tooLong);
const fileListMessage = z.string({ error: fileListMessages.required }).trim().min(1, fileListMessages.required).max(4096, messages.tooLong);
const fileListOptions = z.array(fileListOptionInputSchema).max(MAX_FILE_LIST_OPTIONS, `At most ${MAX_FILE_LIST_OPTIONS} files`);

export const fileListInputSchema = z
  .object({ name: fileListName, message: fileListMessage, options: fileListOptions.optional().default([]) })
  .strip();
export type FileListInput = z.output<typeof fileListInputSchema>;

/**
 * PUT: every field optional; `options`, when given, is the whole new set (options left out are
 * removed with their files), when absent the options stay as they are (no default here: an edit of
 * the name alone must not empty the list).
 */
export const updateFileListSchema = z
  .object({ name: fileListName.optional(), message: fileListMessage.optional(), options: fileListOptions.optional() })
  .strip();
export type UpdateFileListInput = z.output<typeof updateFileListSchema>;

/** The spec's `companyId` is accepted and ignored: the token names the tenant. */
export const listFileListsQuerySchema = z
  .object({
    searchParam: z.string().trim().max(100).optional().default(''),
    pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
    companyId: z.coerce.number().int().positive().optional(),
  })
  .strip();
export type ListFileListsQuery = z.output<typeof listFileListsQuerySchema>;

/** POST /files/uploadList/{id} with JSON: files uploaded with this list's presigned grants, by option. */
export const attachFileListUploadsSchema = z
  .object({
    options: z
      .array(z.object({ id: optionId, key: z.string().trim().min(1).max(1024) }).strip())
      .min(1, messages.required)
      .max(MAX_FILE_LIST_OPTIONS, `At most ${MAX_FILE_LIST_OPTIONS} files`),
  })
  .strip();
export type AttachFileListUploadsInput = z.output<typeof attachFileListUploadsSchema>;

export interface FileListOption {
  id: number;
  name: string;
  /** The media route of its file (`/public/<key>`), null while it has none. */
  path: string | null;
  mediaType: string | null;
  mediaName: string | null;
}

export interface FileList {
  id: number;
  companyId: number;
  name: string;
  message: string;
  userId: number;
  options: FileListOption[];
  createdAt: string;
  updatedAt: string;
}

export interface FileListsPage {
  files: FileList[];
  hasMore: boolean;
}
