/**
 * Who may see or send a media object: the record its key belongs to decides (keys.ts mediaOwner),
 * not the tenant prefix alone, so a user of the company cannot fetch the files of a conversation
 * they may not open, nor attach another ticket's file to theirs.
 *   - a ticket's file (ours, or inbound, found through its WhatsApp message): whoever may see that
 *     ticket (tickets/access.ts, SPEC 6);
 *   - a quick message's file: whoever may see the quick message (its author, everyone for a geral
 *     one, admins: the rule of domain/quick-messages);
 *   - a schedule's file: every user of the company, as schedules are (SPEC: company-wide); a sent
 *     schedule's file stays on the ticket's message after the schedule is gone.
 *   - a file list's file: every user of the company (file lists are the company's, like campaigns),
 *     while the list still names it; a campaign's attachment likewise, while the campaign names it.
 *   - an announcement's image (no tenant's: the platform's): every signed-in user while the
 *     announcement is active, super users always (the rule of domain/announcements).
 * Anything else under the prefix belongs to no record we know: nobody's.
 */

import { copyMedia, headMedia } from '#domain/media/bucket';
import { canSeeTicket, type Viewer, viewerIsAdmin } from '#domain/tickets/access';
import { getAnnouncement } from '#storage/announcements';
import { getCampaign } from '#storage/campaigns/campaigns';
import { getFileList } from '#storage/file-lists';
import { hasMentionGrant } from '#storage/mentions';
import { getMessageByWaId } from '#storage/messages/messages';
import { getQuickMessage } from '#storage/quick-messages';
import { getTicket } from '#storage/tickets/tickets';
import { mediaOwner, outboundMediaKey, platformMediaOwner } from './keys.ts';

/** A ticket's media is the thread's: whoever may read the thread (its viewers, a mentioned colleague). */
async function canSeeTicketId(viewer: Viewer, ticketId: number): Promise<boolean> {
  const ticket = await getTicket(viewer.companyId, ticketId);
  if (!ticket) return false;
  return canSeeTicket(viewer, ticket) || hasMentionGrant(viewer.companyId, ticketId, viewer.userId, new Date().toISOString());
}

/** The quick message whose file `key` is, when the viewer may see it. */
async function visibleQuickMessage(viewer: Viewer, id: number, key: string) {
  const record = await getQuickMessage(viewer.companyId, id);
  const visible = record && (record.geral || record.userId === viewer.userId || viewerIsAdmin(viewer));
  return visible && record.mediaPath === key ? record : undefined;
}

export async function canSeeMedia(viewer: Viewer, key: string): Promise<boolean> {
  const platform = platformMediaOwner(key);
  if (platform) {
    const announcement = await getAnnouncement(platform.id);
    return Boolean(announcement && announcement.mediaPath === key && (announcement.status || viewer.super));
  }
  const owner = mediaOwner(viewer.companyId, key);
  switch (owner?.kind) {
    case 'ticket':
      return canSeeTicketId(viewer, owner.ticketId);
    case 'inbound': {
      const message = await getMessageByWaId(viewer.companyId, owner.connectionId, owner.waMessageId);
      return Boolean(message && message.mediaPath === key && (await canSeeTicketId(viewer, message.ticketId)));
    }
    case 'quick-message':
      return Boolean(await visibleQuickMessage(viewer, owner.id, key));
    case 'schedule':
      return true;
    case 'file-list':
      return Boolean((await getFileList(viewer.companyId, owner.id))?.options.some((option) => option.mediaPath === key));
    case 'campaign':
      return (await getCampaign(viewer.companyId, owner.id))?.mediaPath === key;
    default:
      return false;
  }
}

/**
 * The key to send on `ticketId` for a stored file the caller names (POST /messages `mediaUrls`), or
 * undefined when they may not: a file uploaded for this very ticket, or the file of a quick message
 * they may see. The latter is copied under the ticket first, so the conversation keeps showing it to
 * everyone who sees the ticket (the quick message may be someone's own, and may lose its file).
 */
export async function sendableMedia(viewer: Viewer, ticketId: number, key: string): Promise<string | undefined> {
  const owner = mediaOwner(viewer.companyId, key);
  if (owner?.kind === 'ticket') return owner.ticketId === ticketId ? key : undefined;
  if (owner?.kind === 'quick-message' && (await visibleQuickMessage(viewer, owner.id, key)) && (await headMedia(key))) {
    const copy = outboundMediaKey(viewer.companyId, ticketId, key.split('/').at(-1) ?? 'file');
    await copyMedia(key, copy);
    return copy;
  }
  return undefined;
}
