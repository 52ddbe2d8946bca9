/** The message an inbound WhatsApp event stores (message.ts builds it once its ticket is known). */
import type { Contact } from '#contracts/contacts';
import type { WaMessage } from '#contracts/session-events';
import { profileName } from '#domain/contacts/resolve';
import { cleanFileName } from '#domain/media/keys';
import { messageIdAt } from '#domain/messages/message-id';
import { quoting } from '#domain/messages/send';
import type { MessageRecord } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';

/** SPEC 2: a location body is image|link|description. */
function locationBody(message: WaMessage): string {
  const { latitude, longitude, description } = message.location ?? { latitude: 0, longitude: 0 };
  return [message.media?.key ?? '', `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`, description ?? ''].join('|');
}

/** The message record of an inbound event on `ticket`. */
export function inboundRecord(
  wa: WaMessage,
  at: {
    companyId: number;
    connectionId: number;
    ticket: TicketRecord;
    contact: Contact;
    quoted: MessageRecord | undefined;
    createdAt: string;
    now: Date;
  },
): MessageRecord {
  const { ticket, contact, quoted, createdAt } = at;
  return {
    id: messageIdAt(Date.parse(createdAt), ticket.id),
    companyId: at.companyId,
    ticketId: ticket.id,
    contactId: contact.id,
    whatsappId: at.connectionId,
    waId: wa.id,
    body: wa.location ? locationBody(wa) : wa.body,
    fromMe: wa.fromMe,
    read: wa.fromMe,
    mediaType: wa.location ? 'locationMessage' : (wa.mediaType ?? null),
    mediaPath: wa.media?.key ?? null,
    mediaUrl: wa.media?.key ?? null,
    // A contact's document name, as the attendant will read it: no bidi trick, no control character.
    mediaName: wa.media?.filename ? cleanFileName(wa.media.filename) || null : null,
    ack: wa.fromMe ? 1 : 0,
    isDeleted: false,
    isEdited: false,
    ...quoting(quoted),
    contact: wa.fromMe ? null : { name: wa.isGroup ? profileName(wa.pushName) || wa.participantNumber || '' : contact.name },
    pending: false,
    error: null,
    bot: false,
    userId: null,
    createdAt,
    updatedAt: at.now.toISOString(),
  };
}
