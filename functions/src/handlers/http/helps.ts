/** Help videos: read by every signed-in user, edited by super users; and the API's own document, public. */

import { env } from '#commons/env';
import { helpInputSchema } from '#contracts/helps';
import { createHelp, deleteHelp, listHelps, updateHelp } from '#domain/helps/helps';
import { httpHandler } from '#http/handler';
import { created, HttpResult, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('helps', {
  'GET /helps': () => listHelps(),
  'GET /helps/list': () => listHelps(),
  'POST /helps': async ({ body }) => created(await createHelp(parseInput(helpInputSchema, body))),
  'PUT /helps/{id}': ({ params, body }) => updateHelp(parseId(params), parseInput(helpInputSchema, body)),
  'DELETE /helps/{id}': async ({ params }) => {
    await deleteHelp(parseId(params));
    return noContent();
  },
  // A dynamic import: the generator and every request schema stay out of this Lambda's cold start.
  'GET /api/openapi.json': async () => {
    const { openApiDocument } = await import('../../declarations/openapi.ts');
    return new HttpResult(200, openApiDocument(env.serverVersion), { 'cache-control': 'public, max-age=300' });
  },
});
