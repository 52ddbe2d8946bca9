/** What the upload routes take (grants and attached keys), apart from the bucket code that serves them (attachments.ts). */
import * as z from 'zod';
import { MAX_FILE_BYTES } from './limits.ts';

/** POST .../uploads (a ticket's, a quick message's, a schedule's): the file the browser is about to PUT. */
export const uploadRequestSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  contentType: z
    .string()
    .trim()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Invalid content type')
    .max(127),
  size: z.number().int().min(1).max(MAX_FILE_BYTES, `File too large: at most ${MAX_FILE_BYTES} bytes`),
});
export type UploadRequest = z.output<typeof uploadRequestSchema>;

/** POST .../media-upload with JSON: the key of a file uploaded with that record's grant. */
export const uploadedAttachmentSchema = z.object({ key: z.string().trim().min(1).max(1024) });
