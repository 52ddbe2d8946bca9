/**
 * Importing the contacts of a connection's phone (SPEC 2 Contacts "import", SPEC 7 POST
 * /contacts/import with neither a file nor rows).
 *
 * 1. `requestPhoneImport` (phone-import-request.ts): the API asks the session-host that owns the company's default connection
 *    for its phone's contacts (an `importContacts` session command) and answers at once: a phone
 *    may hold thousands of contacts.
 * 2. The host publishes them to the inbound queue in `contacts` batches; `importPhoneContacts`
 *    (inbound pipeline) creates the missing ones under the spreadsheet import's rules: a number
 *    already in the tenant is never a duplicate error, it is left as it is, except that a contact
 *    named only by its number gets the phone's name. Idempotent: a replayed batch finds every
 *    contact in place and writes nothing.
 * 3. The company's webhooks get one `contact.created` per contact the batch created (none for the
 *    ones it found or named), emitted together once the batch is written: their log items and
 *    attempts go in batched calls (emitWebhookEvents), not one SQS call per contact, and emitting
 *    never throws, so a queue or log that fails neither fails the import nor stops it half-way
 *    (a delivery SQS refuses is parked and sent later, domain/webhooks/queue-or-park.ts).
 */
import { channels } from '#contracts/channels';
import type { Contact, ContactEvent } from '#contracts/contacts';
import type { InboundEvent, PhoneContact } from '#contracts/session-events';
import type { Effects } from '#domain/messages/effects';
import { contactSummary } from '#domain/tickets/present';
import { emitWebhookEvents } from '#domain/webhooks/emit';
import { audience } from '#realtime/publisher';
import { createContact, getContact, getContactByNumber, updateContact } from '#storage/contacts/contacts';
import { newContactId } from '#storage/contacts/conversation-ids';
import { refreshTicketContact } from '#storage/tickets/contact-copy';

/** Same bounds as POST /contacts: a name of 2 to 50 characters, a number of 8 to 50 digits. */
const NAME_MAX = 50;
const importedName = (contact: PhoneContact): string | undefined => {
  const name = contact.name?.trim().slice(0, NAME_MAX).trim();
  return name && name.length >= 2 ? name : undefined;
};

export type PhoneImportOutcome = 'created' | 'named' | 'kept';

/** What one contact's import did; the contact it created, for the batch's webhook events. */
type ImportedOne = { outcome: Exclude<PhoneImportOutcome, 'created'> } | { outcome: 'created'; created: Contact };

async function importOne(companyId: number, connectionId: number, contact: PhoneContact, effects: Effects): Promise<ImportedOne> {
  const name = importedName(contact);
  const publish = (event: ContactEvent) => effects.publish(companyId, channels.contact(companyId), event, audience.company);
  const fillName = async (existing: Contact): Promise<ImportedOne> => {
    // A contact first seen without a name carries its number as its name: the phone's name is better.
    if (!name || existing.name !== existing.number) return { outcome: 'kept' };
    const renamed = await updateContact(companyId, existing.id, { name });
    await refreshTicketContact(companyId, renamed.id, contactSummary(renamed));
    await publish({ action: 'update', contact: renamed });
    return { outcome: 'named' };
  };
  const existing = await getContactByNumber(companyId, contact.number);
  if (existing) return fillName(existing);
  const at = effects.now().toISOString();
  const outcome = await createContact({
    id: await newContactId(companyId),
    companyId,
    name: name ?? contact.number,
    number: contact.number,
    email: '',
    profilePicUrl: '',
    isGroup: false,
    extraInfo: [],
    whatsappId: connectionId,
    createdAt: at,
    updatedAt: at,
  });
  if ('created' in outcome) {
    await publish({ action: 'create', contact: outcome.created });
    return { outcome: 'created', created: outcome.created };
  }
  // Created a moment ago by a first message or another import (which emitted its contact.created).
  const winner = await getContact(companyId, outcome.existingId);
  return winner ? fillName(winner) : { outcome: 'kept' };
}

const CONCURRENCY = 8;

/** One `contacts` batch into the tenant's contacts. */
export async function importPhoneContacts(event: Extract<InboundEvent, { kind: 'contacts' }>, effects: Effects): Promise<string> {
  const unique = [...new Map(event.contacts.map((contact) => [contact.number, contact])).values()];
  const counts: Record<PhoneImportOutcome, number> = { created: 0, named: 0, kept: 0 };
  const created: Contact[] = [];
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const contact = unique[next++]!;
      const one = await importOne(event.companyId, event.connectionId, contact, effects);
      counts[one.outcome]++;
      if (one.outcome === 'created') created.push(one.created);
    }
  };
  const workers = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENCY, unique.length) }, worker));
  // Also when a contact failed (the batch is then retried): the ones created meanwhile are found by
  // the retry, not created again, so their events go now or never.
  await emitWebhookEvents(
    event.companyId,
    'contact.created',
    created.map((contact) => ({ contact })),
    effects.now(),
  );
  const failed = workers.find((settled) => settled.status === 'rejected');
  if (failed) throw failed.reason;
  return `contacts: ${counts.created} created, ${counts.named} named, ${counts.kept} kept`;
}
