/**
 * A message id that names its ticket (issue 24 §2). Our message ids are UUID v7 (domain/messages/
 * message-id.ts); the last 32 of their 74 random bits may carry the id of the ticket the message is
 * stored on, which never changes (a message lives in its ticket's partition). Whoever holds only the
 * id (DELETE /messages/{id}, a quoted message) then reads the message straight from its ticket, and
 * the message needs no id lookup item (storage/messages/messages.ts): two write units less in its transaction.
 *
 * Ids built before issue 24, and ids built where the ticket is not known yet (a schedule claims its
 * id before it finds the ticket), are random there: the ticket they seem to name holds no message of
 * that id, and the reader falls back to their lookup item, which they still have. 42 random bits
 * remain, per millisecond and ticket.
 */

/** Hex digits at the end of the id that carry the ticket id. */
const DIGITS = 8;
const MAX_TICKET = 16 ** DIGITS - 1;

/** `id` naming `ticketId` (unchanged for a ticket id past 32 bits, which keeps its lookup item instead). */
export function nameTicket(id: string, ticketId: number): string {
  if (!Number.isSafeInteger(ticketId) || ticketId < 1 || ticketId > MAX_TICKET) return id;
  return `${id.slice(0, -DIGITS)}${ticketId.toString(16).padStart(DIGITS, '0')}`;
}

/** The ticket an id names, or undefined: for an id from before issue 24 a number nobody checked (see the header). */
export function ticketNamedBy(id: string): number | undefined {
  const tail = id.slice(-DIGITS);
  if (!/^[0-9a-f]{8}$/i.test(tail)) return undefined;
  const ticketId = Number.parseInt(tail, 16);
  return ticketId >= 1 ? ticketId : undefined;
}

/** Whether message `id` names `ticketId`, the ticket it is stored on: found by its id without a lookup item. */
export const namesTicket = (id: string, ticketId: number): boolean => ticketNamedBy(id) === ticketId;
