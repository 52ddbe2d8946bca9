/** Private media (SPEC: "Media is fetched from the backend /public/{path}"): files of records the caller may see, via a presigned redirect. */
import '#adapters/wiring';
import { mediaLocation } from '#domain/media/serve';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { HttpResult } from '#http/result';

export const handler = httpHandler('media', {
  'GET /public/{path+}': async (ctx) => {
    const location = await mediaLocation(requireIdentity(ctx), ctx.params.path ?? '');
    return new HttpResult(302, undefined, { location, 'cache-control': 'private, no-store' });
  },
});
