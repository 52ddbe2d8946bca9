/**
 * GET /public/{path+}: media of a record the caller may see (access.ts: the ticket, the quick
 * message, ...), never merely of their company. A key outside the caller's tenant, of a record they
 * may not see, or one that does not exist, is a 404 (the same answer, so probing learns nothing);
 * otherwise a short-lived presigned GET that the browser follows.
 */

import { headMedia, presignedGet } from '#adapters/media-bucket';
import { NotFoundError } from '#commons/errors';
import type { Viewer } from '#domain/tickets/access';
import { canSeeMedia } from './access.ts';

export async function mediaLocation(viewer: Viewer, key: string): Promise<string> {
  if (!(await canSeeMedia(viewer, key)) || !(await headMedia(key))) throw new NotFoundError('ERR_NOT_FOUND');
  return presignedGet(key);
}
