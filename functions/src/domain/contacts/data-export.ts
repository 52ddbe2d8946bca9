/**
 * GET /contacts/{id}/export (issue 21 §4, LGPD art. 18 / GDPR art. 15 and 20): everything the
 * company holds about one contact, as one JSON document the admin hands to the person who asked.
 *
 * Admins only (routes.ts): the document spans every ticket of the contact, including those of
 * queues a plain user may not see, so "the user who can see the contact" would leak other queues'
 * conversations; a request of this kind is the data controller's act anyway.
 *
 * What it holds: the contact's own fields and extra info; each ticket with its tags and notes; each
 * message with its text, time and direction, and for media a presigned GET valid one day (the
 * person downloads it later, outside the app), served as a download whatever its type (no HEAD per
 * object: an export of thousands of messages stays one Query a page, and a download never runs as
 * a page in the browser).
 *
 * The act is audited (contact.export, the contact's id): who took a copy of a person's data, when.
 *
 * Reads are bounded by the contact: its partition's ticket links, each ticket's message partition
 * page by page, each ticket's notes; nothing of the rest of the tenant is read.
 */

import { recordAudit } from '#domain/audit/record';
import { presignedGet } from '#domain/media/bucket';
import { messageMediaKey } from '#domain/media/keys';
import { servedAs } from '#domain/media/serve';
import { contactPartitionItems } from '#storage/contacts/pages';
import { listMessagesPage } from '#storage/messages/messages';
import { getTickets } from '#storage/tickets/lists';
import { listTicketNotes } from '#storage/tickets/notes';
import type { TicketRecord } from '#storage/tickets/record';
import { getContactFor } from './manage.ts';

/** A day: long enough for the person to download what they asked for, short enough to die soon. */
export const EXPORT_MEDIA_SECONDS = 24 * 60 * 60;
const MESSAGES_PAGE = 500;

export interface ExportedMessage {
  id: string;
  createdAt: string;
  /**
   * `in`: the contact wrote it; `out`: the company (an attendant, a bot, a campaign) sent it;
   * `note`: an attendant's private note in the conversation, never sent to the contact.
   */
  direction: 'in' | 'out' | 'note';
  body: string;
  mediaType: string | null;
  mediaName: string | null;
  /** Presigned GET of the media object, valid EXPORT_MEDIA_SECONDS from `exportedAt`; null without media. */
  mediaUrl: string | null;
  isDeleted: boolean;
  isEdited: boolean;
}

export interface ContactDataExport {
  exportedAt: string;
  mediaLinksExpireAt: string;
  contact: {
    id: number;
    name: string;
    number: string;
    email: string;
    profilePicUrl: string;
    isGroup: boolean;
    extraInfo: { name: string; value: string }[];
    createdAt: string;
    updatedAt: string;
  };
  tickets: {
    id: number;
    uuid: string;
    status: string;
    queueId: number | null;
    userId: number | null;
    whatsappId: number;
    createdAt: string;
    updatedAt: string;
    rating: number | null;
    tags: { id: number; name: string }[];
    notes: { id: number; note: string; user: { id: number; name: string }; createdAt: string }[];
    messages: ExportedMessage[];
  }[];
}

/** The ids of the contact's tickets (its ticket links), oldest first. */
export async function contactTicketIds(companyId: number, contactId: number): Promise<number[]> {
  return (await contactPartitionItems(companyId, contactId))
    .filter((item) => item.sk.startsWith('TICKET#'))
    .map((item) => Number(item.sk.slice('TICKET#'.length)))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

async function exportedMessages(ticket: TicketRecord): Promise<ExportedMessage[]> {
  const out: ExportedMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await listMessagesPage(ticket.companyId, ticket.id, { limit: MESSAGES_PAGE, cursor });
    for (const message of page.messages) {
      const key = messageMediaKey(ticket.companyId, message);
      out.push({
        id: message.id,
        createdAt: message.createdAt,
        direction: message.isPrivate ? 'note' : message.fromMe ? 'out' : 'in',
        body: message.body,
        mediaType: message.mediaType,
        mediaName: message.mediaName,
        mediaUrl: key
          ? await presignedGet(key, servedAs(message.mediaName || key.split('/').at(-1) || 'file', ''), EXPORT_MEDIA_SECONDS)
          : null,
        isDeleted: message.isDeleted,
        isEdited: message.isEdited,
      });
    }
    cursor = page.cursor;
  } while (cursor);
  // The page reads newest first; the document reads as the conversation went.
  return out.reverse();
}

export async function exportContactData(companyId: number, contactId: number, now = new Date()): Promise<ContactDataExport> {
  const contact = await getContactFor(companyId, contactId);
  const tickets = await getTickets(companyId, await contactTicketIds(companyId, contactId), true);
  const document: ContactDataExport = {
    exportedAt: now.toISOString(),
    mediaLinksExpireAt: new Date(now.getTime() + EXPORT_MEDIA_SECONDS * 1000).toISOString(),
    contact: {
      id: contact.id,
      name: contact.name,
      number: contact.number,
      email: contact.email,
      profilePicUrl: contact.profilePicUrl,
      isGroup: contact.isGroup,
      extraInfo: contact.extraInfo ?? [],
      createdAt: contact.createdAt,
      updatedAt: contact.updatedAt,
    },
    tickets: await Promise.all(
      tickets.map(async (ticket) => ({
        id: ticket.id,
        uuid: ticket.uuid,
        status: ticket.status,
        queueId: ticket.queueId,
        userId: ticket.userId,
        whatsappId: ticket.whatsappId,
        createdAt: ticket.createdAt,
        updatedAt: ticket.updatedAt,
        rating: ticket.rating,
        tags: (ticket.tags ?? []).map((tag) => ({ id: tag.id, name: tag.name })),
        notes: (await listTicketNotes(companyId, ticket.id)).map((note) => ({
          id: note.id,
          note: note.note,
          user: note.user,
          createdAt: note.createdAt,
        })),
        messages: await exportedMessages(ticket),
      })),
    ),
  };
  await recordAudit({ action: 'contact.export', targetType: 'contact', targetId: contactId, companyId, now });
  return document;
}
