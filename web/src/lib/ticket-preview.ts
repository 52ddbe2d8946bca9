import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { TFunction } from 'i18next';

/**
 * What a ticket shows of its last message in the lists: its text, or the translated "deleted"
 * marker when that message was deleted (the server then sends no text, only lastMessageDeleted).
 */
export const lastMessagePreview = (ticket: Pick<Ticket, 'lastMessage' | 'lastMessageDeleted'>, t: TFunction): string =>
  ticket.lastMessageDeleted ? t('conversation.messages.deleted') : (ticket.lastMessage ?? '');
