/**
 * Contact lists (SPEC 2 "Contact lists", 3, 7 "Campaigns, lists, files"): every user of the company
 * sees and edits the company's lists (campaigns are the company's). Every change is published on
 * `company-{id}-ContactList` with the record (a delete with the id).
 *
 * A list that a PROGRAMADA or EM_ANDAMENTO campaign ships to is not deleted under it (409
 * ERR_CONTACT_LIST_IN_USE); deleting another list removes the record first, so no item can join it
 * any more, then its items.
 */
import { ConflictError, NotFoundError } from '#commons/errors';
import { channels, type RecordEvent } from '#contracts/channels';
import {
  CONTACT_LISTS_PAGE_SIZE,
  type ContactList,
  type ContactListInput,
  type ContactListsPage,
  type ListContactListsQuery,
} from '#contracts/contact-lists';
import type { Identity } from '#domain/identity';
import { defaultEffects } from '#domain/messages/effects';
import { publishToCompany } from '#realtime/publisher';
import { listCampaigns } from '#storage/campaigns/campaigns';
import { foldSearch, purgeContactListItems } from '#storage/contact-lists/items';
import * as store from '#storage/contact-lists/lists';
import { checkListNumbers } from './number-checks.ts';

const publish = (companyId: number, event: RecordEvent<ContactList>) => publishToCompany(companyId, channels.contactList(companyId), event);

export const presentContactList = (record: store.ContactListRecord): ContactList => ({
  id: record.id,
  companyId: record.companyId,
  name: record.name,
  contactsCount: Math.max(0, record.contactsCount ?? 0),
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

/** The tenant's list `id`, or 404: ids are per tenant, so another company's id names nothing here. */
export async function findContactList(companyId: number, id: number): Promise<store.ContactListRecord> {
  const record = await store.getContactList(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

/** By name (accents and case ignored), pages of CONTACT_LISTS_PAGE_SIZE. */
export async function listContactListsFor(identity: Identity, query: ListContactListsQuery): Promise<ContactListsPage> {
  const needle = foldSearch(query.searchParam);
  const all = (await store.listContactLists(identity.companyId))
    .filter((record) => !needle || foldSearch(record.name).includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  const start = (query.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE;
  return {
    records: all.slice(start, start + CONTACT_LISTS_PAGE_SIZE).map(presentContactList),
    hasMore: all.length > start + CONTACT_LISTS_PAGE_SIZE,
  };
}

/** GET /contact-lists/list: every list for the campaign dialog's picker (id and name suffice, the rest is small). */
export async function allContactListsFor(identity: Identity): Promise<ContactList[]> {
  const all = await store.listContactLists(identity.companyId);
  return all.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id).map(presentContactList);
}

export async function getContactListFor(identity: Identity, id: number): Promise<ContactList> {
  return presentContactList(await findContactList(identity.companyId, id));
}

export async function createContactListFor(identity: Identity, input: ContactListInput): Promise<ContactList> {
  const { companyId } = identity;
  const at = new Date().toISOString();
  const record = await store.createContactList({
    id: await store.newContactListId(companyId),
    companyId,
    name: input.name,
    contactsCount: 0,
    createdAt: at,
    updatedAt: at,
  });
  const list = presentContactList(record);
  await publish(companyId, { action: 'create', record: list });
  return list;
}

export async function updateContactListFor(identity: Identity, id: number, input: ContactListInput): Promise<ContactList> {
  await findContactList(identity.companyId, id);
  const list = presentContactList(await store.renameContactList(identity.companyId, id, input.name));
  await publish(identity.companyId, { action: 'update', record: list });
  return list;
}

export async function deleteContactListFor(identity: Identity, id: number): Promise<void> {
  const { companyId } = identity;
  await findContactList(companyId, id);
  const campaigns = await listCampaigns(companyId);
  if (campaigns.some((c) => c.contactListId === id && (c.status === 'PROGRAMADA' || c.status === 'EM_ANDAMENTO')))
    throw new ConflictError('ERR_CONTACT_LIST_IN_USE');
  await store.deleteContactList(companyId, id);
  await purgeContactListItems(companyId, id);
  await publish(companyId, { action: 'delete', id });
}

/** POST /contact-lists/{id}/check-numbers: the list's unchecked numbers asked again (number-checks.ts). */
export async function checkContactListNumbersFor(identity: Identity, id: number): Promise<{ requested: number }> {
  await findContactList(identity.companyId, id);
  return checkListNumbers(identity.companyId, id, defaultEffects);
}
