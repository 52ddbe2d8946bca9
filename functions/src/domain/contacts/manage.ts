/**
 * The contacts API (SPEC 5 "Contact", 7 "Contacts, tags, users, queues"). Numbers are stored as
 * digits and unique per tenant (the number guard, storage/contacts/contacts.ts); a taken number is
 * ERR_DUPLICATED_CONTACT (409). Every change is published on `company-{id}-contact`; an edit of
 * what tickets show (name, number, photo) also publishes the contact's open/pending tickets.
 *
 * Search (from 3 characters): digits (a phone, mask characters ignored) search the number-prefix
 * index, anything else the name-prefix index (case and accents ignored). Both are one Query a page.
 *
 * Delete (admin): refused with ERR_OTHER_OPEN_TICKET (409) while the contact has an open or pending
 * ticket, checked in the delete's own transaction (the ticket slots must still be released), so a
 * ticket opened meanwhile is never left without its contact. Closed tickets stay, with their copy of
 * the contact's name and number; their links in the contact's partition are removed.
 */
import { ConflictError, NotFoundError } from '#commons/errors';
import { channels } from '#contracts/channels';
import { CONTACTS_PAGE_SIZE, type CreateContactInput, type ListContactsQuery, type UpdateContactInput } from '#contracts/contact-requests';
import type { Contact, ContactEvent } from '#contracts/contacts';
import { publishContactTickets } from '#domain/tickets/notify';
import { contactSummary } from '#domain/tickets/present';
import { emitWebhookEvent } from '#domain/webhooks/emit';
import { publish, publishToCompany } from '#realtime/publisher';
import * as store from '#storage/contacts/contacts';
import { newContactId } from '#storage/contacts/conversation-ids';
import { contactPartitionItems, listContactsPage, purgeContactPartition } from '#storage/contacts/pages';
import { refreshTicketContact } from '#storage/tickets/contact-copy';

const publishContactEvent = (companyId: number, event: ContactEvent) => publishToCompany(companyId, channels.contact(companyId), event);

export const MIN_SEARCH_CHARS = 3;
/** GET /contacts/list answers at most this many contacts, in name order. */
export const CONTACT_LIST_LIMIT = 1000;

export function searchPrefix(searchParam: string): { by: 'name' | 'number'; value: string } | undefined {
  const text = searchParam.trim();
  if (text.length < MIN_SEARCH_CHARS) return undefined;
  if (/^[\d\s()+.-]+$/.test(text)) {
    const digits = text.replace(/\D/g, '');
    return digits.length >= MIN_SEARCH_CHARS ? { by: 'number', value: digits } : undefined;
  }
  return { by: 'name', value: store.nameSearchKey(text) };
}

const dayStart = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : new Date(value).toISOString());
const dayEnd = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : new Date(value).toISOString());

export async function listContactsFor(
  companyId: number,
  query: ListContactsQuery,
): Promise<{ contacts: Contact[]; hasMore: boolean; count: number; nextCursor?: string }> {
  const base = {
    prefix: searchPrefix(query.searchParam),
    createdFrom: query.date ? dayStart(query.date) : query.dateStart ? dayStart(query.dateStart) : undefined,
    createdTo: query.date ? dayEnd(query.date) : query.dateEnd ? dayEnd(query.dateEnd) : undefined,
    limit: CONTACTS_PAGE_SIZE,
    list: 'page' as const,
  };
  let cursor = query.cursor;
  let before = 0;
  // pageNumber without a cursor: walk the pages before it (bounded by pageNumber's maximum).
  for (let page = 1; !query.cursor && page < query.pageNumber; page++) {
    const skipped = await listContactsPage(companyId, { ...base, cursor });
    before += skipped.contacts.length;
    cursor = skipped.cursor;
    if (!cursor) return { contacts: [], hasMore: false, count: before };
  }
  const page = await listContactsPage(companyId, { ...base, cursor });
  // count: the contacts up to and including this page (a total would read the whole tenant).
  return { contacts: page.contacts, hasMore: Boolean(page.cursor), count: before + page.contacts.length, nextCursor: page.cursor };
}

/** GET /contacts/list: the pickers' list (name order, at most CONTACT_LIST_LIMIT). */
export async function listAllContactsFor(
  companyId: number,
  searchParam = '',
): Promise<Pick<Contact, 'id' | 'name' | 'number' | 'email'>[]> {
  const out: Pick<Contact, 'id' | 'name' | 'number' | 'email'>[] = [];
  let cursor: string | undefined;
  do {
    const page = await listContactsPage(companyId, {
      prefix: searchPrefix(searchParam),
      limit: CONTACT_LIST_LIMIT - out.length,
      list: 'picker',
      cursor,
    });
    for (const c of page.contacts) out.push({ id: c.id, name: c.name, number: c.number, email: c.email });
    cursor = page.cursor;
  } while (cursor && out.length < CONTACT_LIST_LIMIT);
  return out;
}

/** GET /contacts/export answers this many contacts a page: the whole tenant in a few requests. */
export const CONTACT_EXPORT_PAGE = 1000;

export type ContactExportRow = Pick<Contact, 'name' | 'number' | 'email'>;

/**
 * GET /contacts/export: every contact of the company, page by page in name order (the CSV export
 * follows `nextCursor` until there is none), however many the tenant has.
 */
export async function exportContactsPage(
  companyId: number,
  cursor?: string,
): Promise<{ contacts: ContactExportRow[]; nextCursor?: string }> {
  const page = await listContactsPage(companyId, { limit: CONTACT_EXPORT_PAGE, list: 'export', cursor });
  return {
    contacts: page.contacts.map((c) => ({ name: c.name, number: c.number, email: c.email })),
    ...(page.cursor ? { nextCursor: page.cursor } : {}),
  };
}

export async function getContactFor(companyId: number, id: number): Promise<Contact> {
  const contact = await store.getContact(companyId, id);
  if (!contact || contact.companyId !== companyId) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return contact;
}

export async function createContactFor(companyId: number, input: CreateContactInput, now = new Date()): Promise<Contact> {
  const at = now.toISOString();
  const outcome = await store.createContact({
    id: await newContactId(companyId),
    companyId,
    name: input.name,
    number: input.number,
    email: input.email,
    profilePicUrl: '',
    isGroup: false,
    extraInfo: input.extraInfo,
    whatsappId: null,
    createdAt: at,
    updatedAt: at,
  });
  if ('existingId' in outcome) throw new ConflictError('ERR_DUPLICATED_CONTACT');
  await Promise.all([
    publishContactEvent(companyId, { action: 'create', contact: outcome.created }),
    emitWebhookEvent(companyId, 'contact.created', { contact: outcome.created }),
  ]);
  return outcome.created;
}

export async function updateContactFor(companyId: number, id: number, input: UpdateContactInput): Promise<Contact> {
  const before = await getContactFor(companyId, id);
  const contact = Object.values(input).some((value) => value !== undefined) ? await store.updateContact(companyId, id, input) : before;
  const summary = contactSummary(contact);
  // The tickets carry a copy of name, number and photo: when that copy changes, their viewers get
  // each open/pending ticket's update (extra info and email are not on tickets: the contact event).
  if (JSON.stringify(summary) !== JSON.stringify(contactSummary(before)))
    await publishContactTickets({ publish }, companyId, await refreshTicketContact(companyId, id, summary));
  await publishContactEvent(companyId, { action: 'update', contact });
  return contact;
}

export async function deleteContactFor(companyId: number, id: number): Promise<void> {
  const contact = await getContactFor(companyId, id);
  const items = await contactPartitionItems(companyId, id);
  const slots = items.filter((item) => item.sk.startsWith('SLOT#'));
  if (slots.some((slot) => slot.active)) throw new ConflictError('ERR_OTHER_OPEN_TICKET');
  await store.deleteContact(
    companyId,
    contact,
    slots.map((slot) => slot.sk),
  );
  await purgeContactPartition(
    companyId,
    id,
    items.filter((item) => item.sk !== 'CONTACT').map((item) => item.sk),
  );
  await publishContactEvent(companyId, { action: 'delete', contactId: id });
}
