/**
 * External messages API (BEHAVIOUR): `Authorization: Bearer <connection token>`, JSON {number, body}
 * or multipart {number, body, medias}. A public route for the framework: the token is checked here.
 * Every answer to a known token, errors included, carries its window's RateLimit-* headers, so the
 * errors are shaped here rather than by the framework's mapper. An optional Idempotency-Key makes
 * the send safe to retry (domain/external-api/idempotency.ts).
 */
import '#adapters/wiring';
import { ValidationError } from '#commons/errors';
import { externalSendJsonSchema, NOT_A_NOTE } from '#domain/external-api/input';
import {
  admitExternalRequest,
  assertAdmitted,
  type ExternalSend,
  type RateLimitState,
  sendExternalMessage,
} from '#domain/external-api/send';
import { readMultipartForm } from '#domain/media/multipart';
import { bearerToken } from '#http/access';
import { clientInfo } from '#http/client-info';
import { errorToResult } from '#http/error-mapper';
import { httpHandler } from '#http/handler';
import { HttpResult } from '#http/result';
import type { RequestContext } from '#http/types';
import { parseInput } from '#http/validate';

async function readSend(ctx: RequestContext): Promise<ExternalSend> {
  const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
  if (form?.fields.isPrivate?.some((value) => value !== 'false')) throw new ValidationError('isPrivate', NOT_A_NOTE);
  if (form)
    return {
      number: parseInput(externalSendJsonSchema.shape.number, form.fields.number?.[0], 'number'),
      bodies: form.fields.body ?? [],
      files: form.files,
    };
  const input = parseInput(externalSendJsonSchema, ctx.body ?? {});
  return { number: input.number, bodies: [input.body], files: [] };
}

/** The action's value or error as the answer it makes, so headers can be added to either. */
async function answerOf(action: () => Promise<unknown>): Promise<HttpResult> {
  try {
    const value = await action();
    return value instanceof HttpResult ? value : new HttpResult(200, value ?? null);
  } catch (error) {
    return errorToResult(error);
  }
}

const withHeaders = (result: { status: number; body: unknown; headers?: Record<string, string> }, headers: Record<string, string>) =>
  new HttpResult(result.status, result.body, { ...result.headers, ...headers });

/** The IETF RateLimit header fields: the token's limit, what is left of it, seconds until its window resets. */
const rateLimitHeaders = (rate: RateLimitState): Record<string, string> => ({
  'ratelimit-limit': String(rate.limit),
  'ratelimit-remaining': String(rate.remaining),
  'ratelimit-reset': String(rate.resetInSeconds),
});

export const handler = httpHandler('external-api', {
  'POST /api/messages/send': async (ctx) => {
    const admitted = await admitExternalRequest(bearerToken(ctx.event), clientInfo(ctx.event));
    const result = await answerOf(async () => {
      const sender = await assertAdmitted(admitted);
      const rawKey = ctx.event.headers?.['idempotency-key'];
      if (rawKey === undefined) return sendExternalMessage(sender, await readSend(ctx));
      // Loaded only by requests with a key: the cold start stays under bench:bundles' 500 KB.
      const { answerOnce, idempotencyKey, sendFingerprint } = await import('#domain/external-api/idempotency');
      const key = idempotencyKey(rawKey);
      const send = await readSend(ctx);
      const once = await answerOnce(sender.company.id, key, sendFingerprint(sender, send), () =>
        answerOf(() => sendExternalMessage(sender, send)),
      );
      return once.replayed ? withHeaders(once.answer, { 'idempotent-replayed': 'true' }) : once.answer;
    });
    return withHeaders(result, rateLimitHeaders(admitted.rate));
  },
});
