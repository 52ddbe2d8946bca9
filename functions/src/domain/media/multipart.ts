/**
 * multipart/form-data from a Lambda body (already whole in memory), parsed with busboy. Limits are
 * enforced while parsing: a file over MAX_FILE_BYTES is a 413, a malformed form (no boundary, cut
 * short, too many parts) a 400, never a 500 and never half a file.
 */
import type busboy from 'busboy';
import { AppError, ValidationError } from '#commons/errors';
import { MAX_FILE_BYTES, MAX_FILES } from './limits.ts';

export { MAX_FILE_BYTES, MAX_FILES };

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;

export class FileTooLargeError extends AppError {
  constructor(field: string, maxBytes: number) {
    super('ERR_PAYLOAD_TOO_LARGE', 413, { field, maxBytes });
  }
}

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface MultipartForm {
  /** Every value of each text field, in order (a field may repeat). */
  fields: Record<string, string[]>;
  files: UploadedFile[];
}

export const isMultipart = (contentType: string | undefined): boolean => /^multipart\/form-data\b/i.test(contentType?.trim() ?? '');

export async function parseMultipart(body: Buffer, contentType: string, maxFileBytes = MAX_FILE_BYTES): Promise<MultipartForm> {
  // Imported by the requests that carry a form, not at cold start: most of the Lambdas parsing
  // forms take JSON far more often (infra/lib/bundling.ts; external-api passed 500 KB with it).
  const { default: parse } = await import('busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string[]> = Object.create(null);
    const files: UploadedFile[] = [];
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
    };
    let parser: busboy.Busboy;
    try {
      parser = parse({
        headers: { 'content-type': contentType },
        // busboy flags a file on reaching fileSize: one byte more lets exactly maxFileBytes through.
        limits: {
          fileSize: maxFileBytes + 1,
          files: MAX_FILES,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FILES + MAX_FIELDS,
        },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new ValidationError('body', 'Malformed multipart body'));
      return;
    }
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new FileTooLargeError(field, maxFileBytes)));
      // A part cut short (no closing boundary): the form is malformed, not our fault.
      stream.on('error', () => fail(new ValidationError('body', 'Malformed multipart body')));
      stream.on('end', () => {
        if ((stream as { truncated?: boolean }).truncated) return;
        files.push({
          field,
          filename: info.filename ?? '',
          mimetype: info.mimeType || 'application/octet-stream',
          data: Buffer.concat(chunks),
        });
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new ValidationError(name, 'Field too long'));
      fields[name] = [...(fields[name] ?? []), value];
    });
    parser.on('filesLimit', () => fail(new ValidationError('medias', `At most ${MAX_FILES} files`)));
    parser.on('fieldsLimit', () => fail(new ValidationError('body', 'Too many fields')));
    parser.on('partsLimit', () => fail(new ValidationError('body', 'Too many parts')));
    parser.on('error', () => {
      reject(failure instanceof AppError ? failure : new ValidationError('body', 'Malformed multipart body'));
    });
    parser.on('close', () => {
      if (failure) reject(failure);
      else resolve({ fields, files });
    });
    parser.end(body);
  });
}

/** The form of a multipart request, or undefined when the request is not multipart (JSON). */
export async function readMultipartForm(contentType: string | undefined, body: Buffer | undefined): Promise<MultipartForm | undefined> {
  if (!contentType || !isMultipart(contentType)) return undefined;
  if (!body?.length) throw new ValidationError('body', 'Empty multipart body');
  return parseMultipart(body, contentType);
}
