/**
 * Contact lists (SPEC 3 "Contact list"): the audiences campaigns ship to.
 *
 *   list   pk = C#<cid>   sk = CLIST#<padded id>   { id, companyId, name, contactsCount, createdAt, updatedAt }
 *          -> one Query reads the tenant's lists (a page-sized set per company: the lists page
 *             searches and pages them in memory, as schedules do); one GetItem by id
 *
 * `contactsCount` is a counter, not a count on read: contact-lists/items.ts moves it in the same
 * transaction that adds or removes an item, conditioned on the list still existing, so an item
 * never lands in a deleted list and the table's count never needs a scan of the items.
 * The items live in partitions of their own (contact-lists/items.ts): a list of 10,000 contacts
 * does not make the tenant's partition heavy.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';

export interface ContactListRecord {
  id: number;
  companyId: number;
  name: string;
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

const SK_PREFIX = 'CLIST#';
export const contactListKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `${SK_PREFIX}${pad(id)}` });

export const newContactListId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'CONTACT_LIST');

export const getContactList = (companyId: number, id: number): Promise<ContactListRecord | undefined> =>
  getItem<ContactListRecord>(contactListKey(companyId, id).pk, contactListKey(companyId, id).sk);

export const listContactLists = (companyId: number): Promise<ContactListRecord[]> =>
  queryAll<ContactListRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': SK_PREFIX },
  });

export async function createContactList(record: ContactListRecord): Promise<ContactListRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...contactListKey(record.companyId, record.id), entity: 'contactList', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

/** Renames; the counter is left to the item writes. */
export async function renameContactList(companyId: number, id: number, name: string): Promise<ContactListRecord> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: contactListKey(companyId, id),
        UpdateExpression: 'SET #name = :name, updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name, ':at': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ContactListRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

/** Removes the list record only: from then on no item can be added to it; its items are purged after. */
export async function deleteContactList(companyId: number, id: number): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({ TableName: table(), Key: contactListKey(companyId, id), ConditionExpression: 'attribute_exists(pk)' }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}
