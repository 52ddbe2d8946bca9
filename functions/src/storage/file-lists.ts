/**
 * File lists (SPEC 3 "File list"): named sets of files a campaign sends to every contact after its
 * message (issue 10).
 *
 *   file list  pk = C#<cid>   sk = FLIST#<padded id>
 *              { id, companyId, name, message, userId, options: [{ id, name, mediaPath, mediaName, mediaType }],
 *                nextOptionId, revision, createdAt, updatedAt }
 *              -> one Query reads the tenant's lists (a page-sized set per company: the files page
 *                 searches and pages them in memory, as contact lists do); one GetItem by id, which is
 *                 all the campaign engine needs to send a list's files (getFileList)
 *
 * The options live inside the list's item, not one item each: a list carries at most
 * MAX_FILE_LIST_OPTIONS files (contracts/file-lists.ts), a few KB, and the engine reads the whole
 * list for every contact it ships to, so one GetItem beats a Query. Writes replace the item on
 * condition that `revision` is still the one read: an upload and an edit racing each other never
 * drop one another's options (the loser re-reads and applies its change again).
 *
 * `mediaPath` is the media bucket key (`<cid>/files/<listId>/<upload>/<name>`, domain/media/keys.ts),
 * '' while the option has no file yet.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface FileListOptionRecord {
  /** Per list, never reused within it (`nextOptionId`). */
  id: number;
  /** What the user called it (the dialog's option name). */
  name: string;
  /** Bucket key, '' without a file. */
  mediaPath: string;
  /** The file's name as uploaded (what WhatsApp shows for a document). */
  mediaName: string;
  /** The file's content type, '' without a file. */
  mediaType: string;
}

export interface FileListRecord {
  id: number;
  companyId: number;
  name: string;
  message: string;
  /** Who created it. */
  userId: number;
  options: FileListOptionRecord[];
  nextOptionId: number;
  /** Bumped by every write: the condition of the next one. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** One file a campaign sends: its bucket key, its file name and content type. */
export interface FileListFile {
  optionId: number;
  key: string;
  name: string;
  mimetype: string;
}

/** The list as the campaign engine reads it: its message and the files to send, in the list's order. */
export type FileListWithFiles = FileListRecord & { files: FileListFile[] };

const SK_PREFIX = 'FLIST#';
const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `${SK_PREFIX}${pad(id)}` });

export const newFileListId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'FILE_LIST');

/** The options that carry a file, as the engine sends them. */
export const filesOf = (record: Pick<FileListRecord, 'options'>): FileListFile[] =>
  record.options
    .filter((option) => option.mediaPath)
    .map((option) => ({ optionId: option.id, key: option.mediaPath, name: option.mediaName || option.name, mimetype: option.mediaType }));

const fromStored = (item: FileListRecord | undefined, companyId: number): FileListRecord | undefined =>
  item && item.companyId === companyId ? { ...item, options: item.options ?? [] } : undefined;

/** The tenant's file list `id` (undefined when there is none), with the files a campaign sends. */
export async function getFileList(companyId: number, id: number): Promise<FileListWithFiles | undefined> {
  const record = fromStored(await getItem<FileListRecord>(key(companyId, id).pk, key(companyId, id).sk), companyId);
  return record ? { ...record, files: filesOf(record) } : undefined;
}

export async function listFileLists(companyId: number): Promise<FileListRecord[]> {
  const items = await queryAll<FileListRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': SK_PREFIX },
  });
  return items.flatMap((item) => fromStored(item, companyId) ?? []);
}

export async function createFileList(record: FileListRecord): Promise<FileListRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(record.companyId, record.id), entity: 'fileList', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

/** Thrown when the list changed since it was read: re-read and apply the change again. */
export class FileListChangedError extends ConflictError {
  constructor() {
    super('ERR_FILE_LIST_CHANGED');
  }
}

/**
 * Replaces the list as `before` was read with `after` (revision bumped here): 404 when it is gone,
 * FileListChangedError when someone else wrote it in between.
 */
export async function replaceFileList(before: FileListRecord, after: Omit<FileListRecord, 'revision'>): Promise<FileListRecord> {
  const next: FileListRecord = { ...after, revision: before.revision + 1 };
  try {
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { ...key(before.companyId, before.id), entity: 'fileList', ...next },
        ConditionExpression: 'attribute_exists(pk) AND revision = :revision',
        ExpressionAttributeValues: { ':revision': before.revision },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const now = await getItem<FileListRecord>(key(before.companyId, before.id).pk, key(before.companyId, before.id).sk);
    if (!now) throw new NotFoundError('ERR_NOT_FOUND');
    throw new FileListChangedError();
  }
  return next;
}

/** Removes the record only (its objects are the caller's to delete, after: nothing names them any more). */
export async function deleteFileList(companyId: number, id: number): Promise<FileListRecord> {
  try {
    const out = await db().send(
      new DeleteCommand({
        TableName: table(),
        Key: key(companyId, id),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    const record = fromStored(out.Attributes ? stripKeys<FileListRecord>(out.Attributes) : undefined, companyId);
    if (!record) throw new NotFoundError('ERR_NOT_FOUND');
    return record;
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}
