/**
 * GET /public/{path+}: media of the caller's company only. A key outside the caller's tenant prefix,
 * or one that does not exist, is a 404 (the same answer, so probing learns nothing); otherwise a
 * short-lived presigned GET that the browser follows.
 */
import { NotFoundError } from '#commons/errors';
import { isTenantKey } from './keys.ts';
import { headMedia, presignedGet } from './store.ts';

export async function mediaLocation(companyId: number, key: string): Promise<string> {
  if (!isTenantKey(companyId, key) || !(await headMedia(key))) throw new NotFoundError('ERR_NOT_FOUND');
  return presignedGet(key);
}
