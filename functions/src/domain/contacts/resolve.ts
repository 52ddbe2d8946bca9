/**
 * The contact of an inbound event, matched by (tenant, number digits) and created on first contact
 * through the number guard (storage/contacts/contacts.ts), so concurrent first messages make one contact.
 * pushName names a new contact; it also replaces a name that is only the number (a contact first
 * seen without one). Our own messages never rename anyone: their pushName is ours.
 */
import { CONTACT_NAME_MAX } from '#contracts/contact-requests';
import { type Contact, numberDigits } from '#contracts/contacts';
import type { Effects } from '#domain/messages/effects';
import { contactSummary } from '#domain/tickets/present';
import { publishContact } from '#domain/tickets/publish';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { createContact, getContact, getContactByNumber, updateContact } from '#storage/contacts/contacts';
import { newContactId } from '#storage/contacts/conversation-ids';
import { refreshTicketContact } from '#storage/tickets/contact-copy';

export interface ContactSource {
  companyId: number;
  connectionId: number;
  number: string;
  isGroup: boolean;
  fromMe: boolean;
  pushName?: string;
}

export const contactNumber = (source: Pick<ContactSource, 'number' | 'isGroup'>): string =>
  source.isGroup ? source.number.trim() : numberDigits(source.number);

/**
 * A WhatsApp profile name as we keep it: the sender's to choose, so cut to the length a typed name
 * may have (whole characters), so its search words stay few and a new contact's transaction small,
 * and a group sender's name on a message no longer than a contact's.
 */
export const profileName = (pushName: string | undefined): string =>
  Array.from(pushName?.trim() ?? '')
    .slice(0, CONTACT_NAME_MAX)
    .join('')
    .trim();

/** The name an event may give its contact: the sender's pushName, never our own nor a group's. */
const pushNameOf = (source: ContactSource): string | undefined =>
  source.fromMe || source.isGroup ? undefined : profileName(source.pushName) || undefined;

/**
 * Whether the event leaves an existing contact as it is: it carries no name, or the contact already
 * has a name of its own (only a name that is just the number gives way to a pushName).
 */
export const keepsContact = (existing: Pick<Contact, 'name' | 'number'>, source: ContactSource): boolean => {
  const name = pushNameOf(source);
  return !name || existing.name !== existing.number || name === existing.name;
};

export async function resolveContact(source: ContactSource, effects: Effects): Promise<Contact> {
  const found = await findContact(source, effects);
  if (found) {
    await found.published;
    return found.contact;
  }
  const created = await createContact(newContactRecord(source, await newContactId(source.companyId), effects.now().toISOString()));
  if ('created' in created) {
    await announceContact(effects, created.created);
    return created.created;
  }
  return winnerOf(source, created.existingId);
}

/** The contact's event on its way; its failure reaches whoever awaits it, not the process's unhandled rejections meanwhile. */
function publishing(effects: Effects, contact: Contact): Promise<unknown> {
  const published = publishContact(effects, contact);
  published.catch(() => undefined);
  return published;
}

export interface ResolvedContact {
  contact: Contact;
  /** The contact's event, when this call renamed it; the caller awaits it. */
  published?: Promise<unknown>;
}

/**
 * The number's contact, renamed when the event names a contact known only by its number, or
 * undefined: the number has no contact yet (newContactRecord, then the caller's create). The renamed
 * contact's event goes out while the caller goes on (it awaits `published` before its own events).
 */
export async function findContact(source: ContactSource, effects: Effects): Promise<ResolvedContact | undefined> {
  return settleContact(source, effects, await getContactByNumber(source.companyId, contactNumber(source)));
}

/** findContact with the number's contact already read (getContactByNumber, beside the caller's other reads). */
export async function settleContact(
  source: ContactSource,
  effects: Effects,
  existing: Contact | undefined,
): Promise<ResolvedContact | undefined> {
  if (!existing) return undefined;
  if (keepsContact(existing, source)) return { contact: existing };
  const renamed = await updateContact(source.companyId, existing.id, { name: pushNameOf(source) });
  await refreshTicketContact(source.companyId, renamed.id, contactSummary(renamed));
  return { contact: renamed, published: publishing(effects, renamed) };
}

/** The contact an event's first message creates, named by its pushName, else its number. */
export function newContactRecord(source: ContactSource, id: number, now: string): Contact {
  const number = contactNumber(source);
  return {
    id,
    companyId: source.companyId,
    name: pushNameOf(source) || number,
    number,
    email: '',
    profilePicUrl: '',
    isGroup: source.isGroup,
    extraInfo: [],
    whatsappId: source.connectionId,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A created contact's event and the company's webhooks' contact.created (issue 23 §2), on their way
 * while the caller goes on; it awaits the promise before its own events.
 */
export function announceContact(effects: Effects, contact: Contact): Promise<unknown> {
  return Promise.all([publishing(effects, contact), contactCreatedWebhook(contact)]);
}

/** The company's webhooks' contact.created (issue 23 §2), for a caller that publishes the contact's event itself. */
export const contactCreatedWebhook = (contact: Contact): Promise<void> =>
  emitWebhookEvent(contact.companyId, 'contact.created', { contact });

/** The contact a concurrent first message created with the number a moment ago (its guard named `id`). */
async function winnerOf(source: ContactSource, id: number): Promise<Contact> {
  const winner = await getContact(source.companyId, id);
  if (!winner) throw new Error(`Contact ${id} guards ${contactNumber(source)} but is missing`);
  return winner;
}
