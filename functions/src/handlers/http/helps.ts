/** Help videos: read by every signed-in user, edited by super users. */
import { helpInputSchema } from '#contracts/helps';
import { createHelp, deleteHelp, listHelps, updateHelp } from '#domain/helps/helps';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
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
});
