/**
 * Our message ids: UUID v7 (RFC 9562), whose first 48 bits are a Unix time in milliseconds. Built
 * from the message's own time, they sort a conversation by time as plain strings (the storage sort
 * key), history delivered late included. The rest is random, so ids never collide; given the
 * ticket, the id's last 32 bits name it (contracts/message-ticket-id.ts) and the message needs no
 * id lookup item.
 */
import { createHash, randomBytes } from 'node:crypto';
import { nameTicket } from '#contracts/message-ticket-id';

function format(bytes: Buffer, ms: number): string {
  const time = Math.max(0, Math.min(ms, 2 ** 48 - 1));
  bytes.writeUIntBE(time, 0, 6);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x70, 6); // version 7
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8); // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A new id at `ms`, naming `ticketId` when given (the ticket it will be stored on). */
export const messageIdAt = (ms: number, ticketId?: number): string => {
  const id = format(randomBytes(16), ms);
  return ticketId === undefined ? id : nameTicket(id, ticketId);
};

/**
 * A v7 id whose random part is derived from `seed`: the chatbot's replies to one inbound message get
 * the same ids on every retry, so a retried event re-sends the same messages instead of new ones.
 * `ticketId`: the ticket it will be stored on, the same on every retry (see messageIdAt).
 */
export const derivedMessageId = (ms: number, seed: string, ticketId?: number): string => {
  const id = format(createHash('sha256').update(seed).digest().subarray(0, 16), ms);
  return ticketId === undefined ? id : nameTicket(id, ticketId);
};

/** Milliseconds encoded in a v7 id. */
export const messageIdTime = (id: string): number => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
