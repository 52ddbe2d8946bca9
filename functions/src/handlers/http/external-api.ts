/**
 * External messages API (BEHAVIOUR): `Authorization: Bearer <connection token>`, JSON {number, body}
 * or multipart {number, body, medias}. A public route for the framework: the token is checked here.
 */
import * as z from 'zod';
import { authorizeExternalSender, type ExternalSend, sendExternalMessage } from '#domain/external-api/send';
import { readMultipartForm } from '#domain/media/multipart';
import { MESSAGE_BODY_MAX } from '#domain/outbound/input';
import { bearerToken } from '#http/access';
import { clientInfo } from '#http/client-info';
import { httpHandler } from '#http/handler';
import type { RequestContext } from '#http/types';
import { parseInput } from '#http/validate';

const jsonSchema = z.object({
  number: z.union([z.string().max(64), z.number().int().nonnegative()]).transform(String),
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
});

async function readSend(ctx: RequestContext): Promise<ExternalSend> {
  const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
  if (form)
    return {
      number: parseInput(jsonSchema.shape.number, form.fields.number?.[0], 'number'),
      bodies: form.fields.body ?? [],
      files: form.files,
    };
  const input = parseInput(jsonSchema, ctx.body ?? {});
  return { number: input.number, bodies: [input.body], files: [] };
}

export const handler = httpHandler('external-api', {
  'POST /api/messages/send': async (ctx) => {
    const sender = await authorizeExternalSender(bearerToken(ctx.event), clientInfo(ctx.event));
    return sendExternalMessage(sender, await readSend(ctx));
  },
});
