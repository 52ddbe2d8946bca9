/**
 * The one file a quick message or a schedule carries, uploaded straight to the bucket like a
 * message's media (ARCHITECTURE: media in S3, presigned): the browser asks for a grant under the
 * record's prefix (`<companyId>/quick-messages/<id>` or `<companyId>/schedules/<id>`), PUTs the file,
 * then names the key it was given. The key is taken only in the shape granted for that record and
 * only once the object is there and within the size limit, so a file never passes through a Lambda
 * (6 MB request limit) and a record never names another record's or tenant's object. The upload
 * request and its presigned grant are shared with a ticket's uploads (domain/outbound/uploads.ts).
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '#commons/errors';
import type { MediaUpload } from '#contracts/messages';
import { headMedia, PRESIGNED_PUT_SECONDS, presignedPut, putMedia } from '#domain/media/bucket';
import { allowedFileType } from './file-types.ts';
import { mediaRoute, safeFileName } from './keys.ts';
import { MAX_FILE_BYTES } from './limits.ts';
import type { UploadedFile } from './multipart.ts';
import type { UploadRequest } from './upload-requests.ts';

// The requests' schemas live apart, so the API's document (declarations/http-requests.ts) reads them without the bucket.
export { type UploadRequest, uploadedAttachmentSchema, uploadRequestSchema } from './upload-requests.ts';

export interface Attachment {
  key: string;
  name: string;
  contentType: string;
}

/** A fresh key under `prefix`: one folder per upload, named for the download. */
export const attachmentKey = (prefix: string, fileName: string | undefined): string =>
  `${prefix}/${randomUUID()}/${safeFileName(fileName)}`;

/**
 * The presigned PUT for one file at `key` (the browser sends exactly this type and length), only for
 * a type the product sends: the signed type is the allowed one, so the bucket takes no other.
 */
export async function uploadGrant(key: string, request: UploadRequest): Promise<MediaUpload> {
  const contentType = allowedFileType(request.fileName, request.contentType, 'contentType');
  return {
    key,
    mediaUrl: mediaRoute(key),
    uploadUrl: await presignedPut(key, contentType, request.size),
    method: 'PUT',
    headers: { 'Content-Type': contentType },
    expiresIn: PRESIGNED_PUT_SECONDS,
  };
}

export const grantAttachmentUpload = (prefix: string, request: UploadRequest): Promise<MediaUpload> =>
  uploadGrant(attachmentKey(prefix, request.fileName), request);

/** Multipart (SPEC 7): the one file of the form (field `file`), stored under `prefix`. */
export async function storeFormAttachment(prefix: string, files: UploadedFile[]): Promise<Attachment> {
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (!file?.data.length) throw new ValidationError('file', 'Required');
  if (files.length > 1) throw new ValidationError('file', 'One file only');
  const contentType = allowedFileType(file.filename, file.mimetype, 'file');
  const key = attachmentKey(prefix, file.filename);
  await putMedia(key, file.data, contentType);
  return { key, name: key.split('/').at(-1) ?? 'file', contentType };
}

const UPLOAD_FOLDER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The uploaded file behind `key`, refused unless it is one granted under `prefix` and is in the bucket. */
export async function uploadedAttachment(prefix: string, key: string): Promise<Attachment> {
  const [folder = '', name = '', ...rest] = key.startsWith(`${prefix}/`) ? key.slice(prefix.length + 1).split('/') : [];
  if (!UPLOAD_FOLDER.test(folder) || !name || rest.length || safeFileName(name) !== name) {
    throw new ValidationError('key', 'Not an upload of this record');
  }
  const head = await headMedia(key);
  if (!head) throw new ValidationError('key', 'The file was not uploaded');
  if (head.size > MAX_FILE_BYTES) throw new ValidationError('key', `File too large: at most ${MAX_FILE_BYTES} bytes`);
  return { key, name, contentType: allowedFileType(name, head.contentType, 'key') };
}
