/**
 * The one place errors become HTTP responses (STYLE 2). Domain errors carry their status and code;
 * anything else is a bug: it is logged with its stack and answered with a bare 500.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ZodError } from 'zod';
import { AppError } from '#commons/errors';
import { logger } from '#commons/logger';
import { HttpResult, toResponse } from './result.ts';
import { issuePath } from './validate.ts';

export function errorToResult(error: unknown): HttpResult {
  if (error instanceof AppError) {
    // A 429 that knows when its window ends says so the standard way too.
    const retryAfter = error.extra.retryAfter;
    const headers = typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : undefined;
    return new HttpResult(error.status, { error: error.code, ...error.extra }, headers);
  }
  // An action that called schema.parse() itself still gets a 400, not a 500.
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return new HttpResult(400, {
      error: 'ERR_VALIDATION',
      field: issue ? issuePath(issue.path) : 'body',
      message: issue?.message ?? 'Invalid',
    });
  }
  logger.error('Unhandled error', { error: error instanceof Error ? error : String(error) });
  return new HttpResult(500, { error: 'ERR_INTERNAL' });
}

export function errorResponse(error: unknown): APIGatewayProxyStructuredResultV2 {
  return toResponse(errorToResult(error));
}
