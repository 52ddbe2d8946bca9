/**
 * The contact of an inbound event, matched by (tenant, number digits) and created on first contact
 * through the number guard (storage/contacts.ts), so concurrent first messages make one contact.
 * pushName names a new contact; it also replaces a name that is only the number (a contact first
 * seen without one). Our own messages never rename anyone: their pushName is ours.
 */
import { type Contact, numberDigits } from '#contracts/contacts';
import type { Effects } from '#domain/messages/effects';
import { contactSummary } from '#domain/tickets/present';
import { publishContact } from '#domain/tickets/publish';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { createContact, getContact, getContactByNumber, newContactId, updateContact } from '#storage/contacts';
import { refreshTicketContact } from '#storage/ticket-contact-copy';

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

/** The name an event may give its contact: the sender's pushName, never our own nor a group's. */
const pushNameOf = (source: ContactSource): string | undefined =>
  !source.fromMe && !source.isGroup ? source.pushName?.trim() || undefined : undefined;

/**
 * Whether the event leaves an existing contact as it is: it carries no name, or the contact already
 * has a name of its own (only a name that is just the number gives way to a pushName).
 */
export const keepsContact = (existing: Pick<Contact, 'name' | 'number'>, source: ContactSource): boolean => {
  const name = pushNameOf(source);
  return !name || existing.name !== existing.number || name === existing.name;
};

export async function resolveContact(source: ContactSource, effects: Effects): Promise<Contact> {
  const resolved = await resolveContactOutcome(source, effects);
  await resolved.published;
  return resolved.contact;
}

/** The contact's event on its way; its failure reaches whoever awaits it, not the process's unhandled rejections meanwhile. */
function publishing(effects: Effects, contact: Contact): Promise<unknown> {
  const published = publishContact(effects, contact);
  published.catch(() => undefined);
  return published;
}

export interface ResolvedContact {
  contact: Contact;
  /** Created by this call: a contact a moment old has no ticket yet. */
  created: boolean;
  /** The contact's event, when this call created or renamed it; the caller awaits it. */
  published?: Promise<unknown>;
}

/**
 * resolveContact for the inbound path, which shortens a new contact's first message: `creating` is
 * called as the contact id is allocated (the caller allocates its ticket id beside it), and the
 * contact's event goes out while the caller goes on (it awaits `published` before its own events).
 */
export async function resolveContactOutcome(
  source: ContactSource,
  effects: Effects,
  hooks: { creating?: () => void } = {},
): Promise<ResolvedContact> {
  const number = contactNumber(source);
  const name = pushNameOf(source);
  const existing = await getContactByNumber(source.companyId, number);
  if (existing) {
    if (keepsContact(existing, source)) return { contact: existing, created: false };
    const renamed = await updateContact(source.companyId, existing.id, { name });
    await refreshTicketContact(source.companyId, renamed.id, contactSummary(renamed));
    return { contact: renamed, created: false, published: publishing(effects, renamed) };
  }
  hooks.creating?.();
  const now = effects.now().toISOString();
  const outcome = await createContact({
    id: await newContactId(source.companyId),
    companyId: source.companyId,
    name: name || number,
    number,
    email: '',
    profilePicUrl: '',
    isGroup: source.isGroup,
    extraInfo: [],
    whatsappId: source.connectionId,
    createdAt: now,
    updatedAt: now,
  });
  if ('created' in outcome) {
    // Its event and the company's webhooks' contact.created (issue 23 §2) go out while the caller goes on.
    const published = Promise.all([
      publishing(effects, outcome.created),
      emitWebhookEvent(source.companyId, 'contact.created', { contact: outcome.created }),
    ]);
    return { contact: outcome.created, created: true, published };
  }
  // A concurrent first message created it a moment ago.
  const winner = await getContact(source.companyId, outcome.existingId);
  if (!winner) throw new Error(`Contact ${outcome.existingId} guards ${number} but is missing`);
  return { contact: winner, created: false };
}
