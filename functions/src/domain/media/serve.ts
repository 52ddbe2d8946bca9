/**
 * GET /public/{path+}: media of a record the caller may see (access.ts: the ticket, the quick
 * message, ...), never merely of their company. A key outside the caller's tenant, of a record they
 * may not see, or one that does not exist, is a 404 (the same answer, so probing learns nothing);
 * otherwise a short-lived presigned GET that the browser follows.
 *
 * The bucket holds what contacts sent as it came (an SVG, a page, a program), so the presigned GET
 * says how to serve it, whatever the object's own type: what the app previews (raster images, audio,
 * video) inline with its type, everything else as a download typed as plain bytes, so no file of
 * ours ever opens as a document that runs script.
 */

import { NotFoundError } from '#commons/errors';
import { baseType, isPreviewableType } from '#contracts/media-types';
import { headMedia, presignedGet, type ServedAs } from '#domain/media/bucket';
import type { Viewer } from '#domain/tickets/access';
import { canSeeMedia } from './access.ts';

export async function mediaLocation(viewer: Viewer, key: string): Promise<string> {
  const head = (await canSeeMedia(viewer, key)) ? await headMedia(key) : undefined;
  if (!head) throw new NotFoundError('ERR_NOT_FOUND');
  return presignedGet(key, servedAs(key.split('/').at(-1) ?? 'file', head.contentType));
}

export function servedAs(fileName: string, storedType: string): ServedAs {
  const inline = isPreviewableType(storedType);
  return {
    contentType: inline ? baseType(storedType) : 'application/octet-stream',
    contentDisposition: `${inline ? 'inline' : 'attachment'}; ${dispositionFileName(fileName)}`,
  };
}

/** RFC 6266: an ASCII `filename` for old clients and the exact name as `filename*` (RFC 5987). */
function dispositionFileName(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
