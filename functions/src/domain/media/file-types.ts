/**
 * Which files an upload may carry (contracts/media-types.ts lists them), checked wherever a file
 * enters: a presigned grant (whose signed type is then the only one the bucket takes), a multipart
 * form, a key named back after a direct upload, and a stored file about to be sent. The extension
 * of the file's cleaned name decides; the declared type must be one of that extension's, or say
 * nothing (a browser that does not know the type sends none or application/octet-stream).
 */
import { ValidationError } from '#commons/errors';
import { baseType, SENDABLE_FILE_TYPES } from '#contracts/media-types';
import { safeFileName } from './keys.ts';

export const FILE_TYPE_NOT_ALLOWED = 'File type not allowed';

const UNDECLARED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/**
 * The type to store and sign for `fileName` declared as `declared` (its extension's first, so one
 * file type is stored one way); throws ERR_FILE_TYPE_NOT_ALLOWED
 * on `field` for a type outside `allowed` or one that its name's extension contradicts.
 */
export function allowedFileType(
  fileName: string | undefined,
  declared: string | undefined,
  field: string,
  allowed: Readonly<Record<string, readonly string[]>> = SENDABLE_FILE_TYPES,
): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(safeFileName(fileName))?.[1]?.toLowerCase() ?? '';
  const types = Object.hasOwn(allowed, ext) ? allowed[ext] : undefined;
  const type = baseType(declared ?? '');
  if (!types?.length || !(UNDECLARED.has(type) || types.includes(type))) {
    throw new ValidationError(field, FILE_TYPE_NOT_ALLOWED, 'ERR_FILE_TYPE_NOT_ALLOWED');
  }
  return types[0] as string;
}
