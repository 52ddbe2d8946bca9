/**
 * The contacts of a contact list (SPEC 2 "List contacts", 3 "Contact list item", 7): add, edit,
 * delete, search and page. A number is in a list once (409 ERR_DUPLICATED_CONTACT naming number).
 * `isWhatsappValid` starts null (not checked yet) and is set once a connected session checked the
 * number (number-checks.ts, asked right after the write); a changed number is unchecked again.
 *
 * Every change is published on `company-{id}-ContactListItem` with the record (a delete with the id);
 * the list's own count changed too, so `company-{id}-ContactList` gets the list's update.
 */
import { NotFoundError } from '#commons/errors';
import { channels, type RecordEvent } from '#contracts/channels';
import {
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  type ContactListItem,
  type ContactListItemsPage,
  type CreateContactListItemInput,
  type ListContactListItemsQuery,
  type UpdateContactListItemInput,
} from '#contracts/contact-lists';
import type { Identity } from '#domain/identity';
import { defaultEffects } from '#domain/messages/effects';
import { publishToCompany } from '#realtime/publisher';
import * as store from '#storage/contact-lists/items';
import { findContactList, presentContactList } from './contact-lists.ts';
import { checkNewNumbers } from './number-checks.ts';

export const presentItem = (record: store.ContactListItemRecord): ContactListItem => ({
  id: record.id,
  companyId: record.companyId,
  contactListId: record.contactListId,
  name: record.name,
  number: record.number,
  email: record.email ?? '',
  isWhatsappValid: record.isWhatsappValid ?? null,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

async function publishChange(companyId: number, contactListId: number, event: RecordEvent<ContactListItem>): Promise<void> {
  await publishToCompany(companyId, channels.contactListItem(companyId), event);
  const list = await findContactList(companyId, contactListId).catch(() => undefined);
  if (list) await publishToCompany(companyId, channels.contactList(companyId), { action: 'update', record: presentContactList(list) });
}

async function findItem(companyId: number, id: number): Promise<store.ContactListItemRecord> {
  const record = await store.getContactListItem(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

/** Pages in the order contacts were added; `nextCursor` continues the same list and search only. */
export async function listItemsFor(identity: Identity, query: ListContactListItemsQuery): Promise<ContactListItemsPage> {
  const { companyId } = identity;
  await findContactList(companyId, query.contactListId);
  const base = { contactListId: query.contactListId, needle: store.foldSearch(query.searchParam), limit: CONTACT_LIST_ITEMS_PAGE_SIZE };
  let cursor = query.cursor;
  // pageNumber without a cursor: walk the pages before it (bounded by pageNumber's maximum).
  for (let page = 1; !query.cursor && page < query.pageNumber; page++) {
    cursor = (await store.listContactListItemsPage(companyId, { ...base, cursor })).cursor;
    if (!cursor) return { contacts: [], hasMore: false };
  }
  const page = await store.listContactListItemsPage(companyId, { ...base, cursor });
  return { contacts: page.items.map(presentItem), hasMore: Boolean(page.cursor), ...(page.cursor ? { nextCursor: page.cursor } : {}) };
}

export async function getItemFor(identity: Identity, id: number): Promise<ContactListItem> {
  return presentItem(await findItem(identity.companyId, id));
}

export async function createItemFor(identity: Identity, input: CreateContactListItemInput): Promise<ContactListItem> {
  const { companyId } = identity;
  await findContactList(companyId, input.contactListId);
  const [id] = await store.newContactListItemIds(companyId, 1);
  const at = new Date().toISOString();
  const record = await store.createContactListItem({
    id: id as number,
    companyId,
    contactListId: input.contactListId,
    name: input.name,
    number: input.number,
    email: input.email,
    isWhatsappValid: null,
    createdAt: at,
    updatedAt: at,
  });
  const item = presentItem(record);
  await publishChange(companyId, record.contactListId, { action: 'create', record: item });
  await checkNewNumbers(companyId, [{ itemId: item.id, contactListId: item.contactListId, number: item.number }], defaultEffects);
  return item;
}

export async function updateItemFor(identity: Identity, id: number, input: UpdateContactListItemInput): Promise<ContactListItem> {
  const before = await findItem(identity.companyId, id);
  const renumbered = input.number !== undefined && input.number !== before.number;
  const patch = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.number !== undefined ? { number: input.number } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    // Another number is another WhatsApp account: checked again before the next campaign ships to it.
    ...(renumbered ? { isWhatsappValid: null } : {}),
  };
  const item = presentItem(await store.updateContactListItem(before, patch));
  await publishChange(identity.companyId, before.contactListId, { action: 'update', record: item });
  if (renumbered)
    await checkNewNumbers(
      identity.companyId,
      [{ itemId: item.id, contactListId: item.contactListId, number: item.number }],
      defaultEffects,
    );
  return item;
}

export async function deleteItemFor(identity: Identity, id: number): Promise<void> {
  const record = await findItem(identity.companyId, id);
  await store.deleteContactListItem(record);
  await publishChange(identity.companyId, record.contactListId, { action: 'delete', id });
}
