/**
 * Decodes the request body (base64 or text), enforces the size limit, and parses JSON bodies.
 * Written here rather than with @middy/http-json-body-parser so a malformed body is our 400
 * ERR_VALIDATION naming `body`, and a missing content-type still parses as JSON (API clients).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError, ValidationError } from '#commons/errors';

/** Larger payloads (media) go to S3 through presigned URLs, never through the API. */
export const MAX_BODY_BYTES = 1024 * 1024;

export class PayloadTooLargeError extends AppError {
  constructor() {
    super('ERR_PAYLOAD_TOO_LARGE', 413);
  }
}

export interface ParsedBody {
  body: unknown;
  rawBody: Buffer | undefined;
}

/** `maxBytes`: the route's own limit (multipart media routes), MAX_BODY_BYTES otherwise. */
export function parseBody(event: APIGatewayProxyEventV2, maxBytes = MAX_BODY_BYTES): ParsedBody {
  if (event.body === undefined || event.body === null || event.body === '') return { body: undefined, rawBody: undefined };
  // Cheap pre-check: base64 is 4/3 of the bytes, so this never under-counts.
  if (event.body.length > (event.isBase64Encoded ? Math.ceil((maxBytes * 4) / 3) + 4 : maxBytes * 4)) {
    throw new PayloadTooLargeError();
  }
  const rawBody = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (rawBody.length > maxBytes) throw new PayloadTooLargeError();

  const contentType = (event.headers?.['content-type'] ?? '').toLowerCase();
  const isJson = contentType === '' || contentType.includes('application/json') || contentType.includes('+json');
  if (!isJson) return { body: undefined, rawBody };

  const text = rawBody.toString('utf8');
  if (text.trim() === '') return { body: undefined, rawBody };
  try {
    return { body: JSON.parse(text), rawBody };
  } catch {
    throw new ValidationError('body', 'Malformed JSON body');
  }
}
