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
 */
import { channels } from '#contracts/channels';
import type { Contact, ContactEvent } from '#contracts/contacts';
import type { InboundEvent, PhoneContact } from '#contracts/session-events';
import type { Effects } from '#domain/messages/effects';
import { contactSummary } from '#domain/tickets/present';
import { audience } from '#realtime/publisher';
import { createContact, getContact, getContactByNumber, newContactId, updateContact } from '#storage/contacts';
import { refreshTicketContact } from '#storage/ticket-contact-copy';

/** Same bounds as POST /contacts: a name of 2 to 50 characters, a number of 8 to 50 digits. */
const NAME_MAX = 50;
const importedName = (contact: PhoneContact): string | undefined => {
  const name = contact.name?.trim().slice(0, NAME_MAX).trim();
  return name && name.length >= 2 ? name : undefined;
};

export type PhoneImportOutcome = 'created' | 'named' | 'kept';

async function importOne(companyId: number, connectionId: number, contact: PhoneContact, effects: Effects): Promise<PhoneImportOutcome> {
  const name = importedName(contact);
  const publish = (event: ContactEvent) => effects.publish(companyId, channels.contact(companyId), event, audience.company);
  const fillName = async (existing: Contact): Promise<PhoneImportOutcome> => {
    // A contact first seen without a name carries its number as its name: the phone's name is better.
    if (!name || existing.name !== existing.number) return 'kept';
    const renamed = await updateContact(companyId, existing.id, { name });
    await refreshTicketContact(companyId, renamed.id, contactSummary(renamed));
    await publish({ action: 'update', contact: renamed });
    return 'named';
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
    return 'created';
  }
  // Created a moment ago by a first message or another import.
  const winner = await getContact(companyId, outcome.existingId);
  return winner ? fillName(winner) : 'kept';
}

const CONCURRENCY = 8;

/** One `contacts` batch into the tenant's contacts. */
export async function importPhoneContacts(event: Extract<InboundEvent, { kind: 'contacts' }>, effects: Effects): Promise<string> {
  const unique = [...new Map(event.contacts.map((contact) => [contact.number, contact])).values()];
  const counts: Record<PhoneImportOutcome, number> = { created: 0, named: 0, kept: 0 };
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const contact = unique[next++]!;
      counts[await importOne(event.companyId, event.connectionId, contact, effects)]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, unique.length) }, worker));
  return `contacts: ${counts.created} created, ${counts.named} named, ${counts.kept} kept`;
}
