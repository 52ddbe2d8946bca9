/**
 * Direct uploads (ARCHITECTURE: media in S3, private, presigned). The browser asks for a URL, PUTs
 * the file straight to the bucket, then sends the message with the key (POST /messages/{ticketId}
 * `mediaUrls`), where the send checks the tenant prefix, that the object exists and its size. Files
 * never pass through a Lambda, whose request payload stops at 6 MB.
 */
import type { MediaUpload } from '#contracts/messages';
import { type UploadRequest, uploadGrant } from '#domain/media/attachments';
import { outboundMediaKey } from '#domain/media/keys';
import { loadVisibleTicket, type Viewer } from '#domain/tickets/access';
import { assertOpen } from './send.ts';

/** Only for a ticket the caller may see and write on (open): the key lives under that ticket. */
export async function createUpload(viewer: Viewer, ticketId: number, request: UploadRequest): Promise<MediaUpload> {
  const ticket = await loadVisibleTicket(viewer, ticketId);
  assertOpen(ticket);
  return uploadGrant(outboundMediaKey(viewer.companyId, ticket.id, request.fileName), request);
}
