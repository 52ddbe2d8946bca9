import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { TFunction } from 'i18next';

/** WhatsApp's formatting marks dropped and the lines joined: a signed answer reads "Helena: Olá!", not "*Helena:*". */
const plain = (text: string) =>
  text
    .replace(/[*~_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * What a ticket shows of its last message in the lists (the inbox, the kanban, the bell): its text as
 * one plain line, or the translated "deleted" marker when that message was deleted (the server then
 * sends no text, only lastMessageDeleted).
 */
export const lastMessagePreview = (ticket: Pick<Ticket, 'lastMessage' | 'lastMessageDeleted'>, t: TFunction): string =>
  ticket.lastMessageDeleted ? t('conversation.messages.deleted') : plain(ticket.lastMessage ?? '');
