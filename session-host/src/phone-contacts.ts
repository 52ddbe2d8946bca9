/**
 * `importContacts` on the host that runs the session: the provider lists the phone's contacts and
 * they leave for the inbound queue in `contacts` batches (the pipeline creates the missing ones).
 * Batches are bounded in entries (PHONE_CONTACTS_BATCH) and names in length, so a message stays far
 * below SQS's 256 KB whatever the phone holds.
 */
import {
  type InboundEvent,
  PHONE_CONTACT_NAME_MAX,
  PHONE_CONTACTS_BATCH,
  type PhoneContact,
  type SessionCommand,
} from '@conversa/functions/contracts/session-events';
import type { InboundPublisher } from './inbound-publisher.ts';
import type { SessionHandle } from './provider.ts';

type ImportCommand = Extract<SessionCommand, { kind: 'importContacts' }>;

/** One entry per number, numbers the pipeline accepts (8 to 20 digits), names cut to the contract's bound. */
export function cleanPhoneContacts(contacts: PhoneContact[]): PhoneContact[] {
  const byNumber = new Map<string, PhoneContact>();
  for (const contact of contacts) {
    const number = contact.number.replace(/\D/g, '');
    if (!/^\d{8,20}$/.test(number)) continue;
    const name = contact.name?.trim().slice(0, PHONE_CONTACT_NAME_MAX);
    const known = byNumber.get(number);
    if (!known || (!known.name && name)) byNumber.set(number, name ? { number, name } : { number });
  }
  return [...byNumber.values()];
}

export function phoneContactBatches(command: ImportCommand, contacts: PhoneContact[]): Extract<InboundEvent, { kind: 'contacts' }>[] {
  const clean = cleanPhoneContacts(contacts);
  const batches: Extract<InboundEvent, { kind: 'contacts' }>[] = [];
  for (let start = 0; start < clean.length; start += PHONE_CONTACTS_BATCH) {
    batches.push({
      kind: 'contacts',
      companyId: command.companyId,
      connectionId: command.connectionId,
      importId: command.commandId,
      batch: batches.length,
      contacts: clean.slice(start, start + PHONE_CONTACTS_BATCH),
    });
  }
  return batches;
}

/** Publishes every batch (durably queued when it resolves); returns how many contacts left. */
export async function publishPhoneContacts(command: ImportCommand, handle: SessionHandle, inbound: InboundPublisher): Promise<number> {
  const contacts = (await handle.listContacts?.()) ?? [];
  const batches = phoneContactBatches(command, contacts);
  // One FIFO group: published in order, each after the previous one is queued.
  for (const batch of batches) await inbound.publish(batch);
  return batches.reduce((sum, batch) => sum + batch.contacts.length, 0);
}
