/**
 * Which conversations the user is reading at this moment: shown (the messages feature's list is
 * mounted for replying, not the spy dialog's read-only view, nor a narrow screen's hidden pane) in
 * a tab that is visible. What arrives there is read as it arrives: the ticket lists and the bell
 * show no unread count for it, and the conversation tells the server (use-messages-live.ts).
 */
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useEffect } from 'react';

const shown = new Map<number, number>();

/** Registers `ticketId`'s conversation as shown while the calling component is mounted and `active`. */
export function useShownConversation(ticketId: number | undefined, active: boolean): void {
  useEffect(() => {
    if (ticketId === undefined || !active) return;
    shown.set(ticketId, (shown.get(ticketId) ?? 0) + 1);
    return () => {
      const left = (shown.get(ticketId) ?? 1) - 1;
      if (left > 0) shown.set(ticketId, left);
      else shown.delete(ticketId);
    };
  }, [ticketId, active]);
}

export const tabVisible = (): boolean => document.visibilityState === 'visible';

/** Whether the user reads `ticketId`'s conversation now: shown, in a visible tab. */
export const isReadingNow = (ticketId: number): boolean => shown.has(ticketId) && tabVisible();

/** The ticket as this screen should count it: nothing unread in a conversation being read. */
export const asSeen = <T extends Pick<Ticket, 'id' | 'unreadMessages'>>(ticket: T): T =>
  ticket.unreadMessages > 0 && isReadingNow(ticket.id) ? { ...ticket, unreadMessages: 0 } : ticket;
