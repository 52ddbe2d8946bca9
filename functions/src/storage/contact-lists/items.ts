/**
 * Contact list items (SPEC 3 "Contact list item"): the numbers of a contact list.
 *
 *   item    pk = C#<cid>#CLI#<padded id>   sk = ITEM   { id, companyId, contactListId, name, number, email, isWhatsappValid, search, ... }
 *           -> GET/PUT/DELETE /contact-list-items/{id}: one GetItem by id, no list id needed
 *     gsi1  gsi1pk = C#<cid>#CL#<padded listId>   gsi1sk = <padded id>
 *           -> a list's items in the order they were added: the list contacts page (a page is one
 *              Query of `limit` items; a search filters on `search` and reads at most
 *              FILTERED_READS batches), the list's delete, and the campaign engine's walk
 *   number  pk = C#<cid>#CL#<padded listId>   sk = NUM#<number digits>   { itemId }
 *     gsi2  gsi2pk = C#<cid>#CLI#UNCHECKED   gsi2sk = <padded id>   (only while isWhatsappValid is null)
 *           -> the company's numbers not yet checked against WhatsApp, in one Query of a sparse index:
 *              what a session checks when it connects (domain/contact-lists/number-checks.ts)
 *           -> one item per number in a list: put on condition in the transaction that creates the
 *              item (or moves its number), deleted with it. A campaign ships once per item, so a
 *              number listed twice would get the campaign twice.
 *
 * `search` is the folded name, the number and the email, one per line: a search reads the list's
 * own partition only, never the tenant's. `isWhatsappValid` is null until the number is checked
 * against WhatsApp through a connected session (setWhatsappValid), then true or false.
 *
 * Every add and remove moves the list's `contactsCount` (contact-lists/lists.ts) in the same transaction,
 * on condition that the list exists: an item never lands in a deleted list.
 */
import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import { InvalidCursorError, openCursor, scopeOf, sealCursor } from '../cursors.ts';
import { db, getItem, isConditionalCheckFailed, stripKeys, table, transactionCancellationCodes, updateExpression } from '../db.ts';
import { pad, tenantPk } from '../table.ts';
import { contactListKey } from './lists.ts';

export interface ContactListItemRecord {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  createdAt: string;
  updatedAt: string;
}

export type ContactListItemPatch = Partial<Pick<ContactListItemRecord, 'name' | 'number' | 'email' | 'isWhatsappValid'>>;

/** Reads a filtered page makes at most before answering with what it found and a cursor. */
export const FILTERED_READS = 5;

const itemKey = (companyId: number, id: number) => ({ pk: `${tenantPk(companyId)}#CLI#${pad(id)}`, sk: 'ITEM' });
const listPartition = (companyId: number, contactListId: number) => `${tenantPk(companyId)}#CL#${pad(contactListId)}`;
const numberKey = (companyId: number, contactListId: number, number: string) => ({
  pk: listPartition(companyId, contactListId),
  sk: `NUM#${number}`,
});

export const foldSearch = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
const searchText = (item: Pick<ContactListItemRecord, 'name' | 'number' | 'email'>) =>
  [foldSearch(item.name), item.number, item.email.toLowerCase()].join('\n');

const uncheckedPartition = (companyId: number) => `${tenantPk(companyId)}#CLI#UNCHECKED`;

const stored = (record: ContactListItemRecord) => ({
  ...itemKey(record.companyId, record.id),
  entity: 'contactListItem',
  gsi1pk: listPartition(record.companyId, record.contactListId),
  gsi1sk: pad(record.id),
  ...(record.isWhatsappValid === null ? { gsi2pk: uncheckedPartition(record.companyId), gsi2sk: pad(record.id) } : {}),
  search: searchText(record),
  ...record,
});
const fromStored = (item: Record<string, unknown>): ContactListItemRecord => {
  const { search: _search, ...rest } = stripKeys<ContactListItemRecord & { search?: string }>(item);
  return rest;
};

/** `count` consecutive ids in one write (an upload of 1,000 rows asks once, not 1,000 times). */
export async function newContactListItemIds(companyId: number, count: number): Promise<number[]> {
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: tenantPk(companyId), sk: 'COUNTER#CONTACT_LIST_ITEM' },
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

export async function getContactListItem(companyId: number, id: number): Promise<ContactListItemRecord | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: itemKey(companyId, id), ConsistentRead: true }));
  return out.Item ? fromStored(out.Item) : undefined;
}

const countMove = (companyId: number, contactListId: number, by: 1 | -1) => ({
  Update: {
    TableName: table(),
    Key: contactListKey(companyId, contactListId),
    UpdateExpression: 'ADD contactsCount :by',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':by': by },
  },
});

/** Adds the item: 409 ERR_DUPLICATED_CONTACT when its number is in the list already, 404 when the list is gone. */
export async function createContactListItem(record: ContactListItemRecord): Promise<ContactListItemRecord> {
  const { companyId, contactListId } = record;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table(), Item: stored(record), ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: table(),
              Item: { ...numberKey(companyId, contactListId, record.number), entity: 'contactListNumber', itemId: record.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          countMove(companyId, contactListId, 1),
        ],
      }),
    );
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[1] === 'ConditionalCheckFailed') throw new ConflictError('ERR_DUPLICATED_CONTACT', { field: 'number' });
    if (codes?.[2] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
  return record;
}

function sameNumberUpdate(before: ContactListItemRecord, after: ContactListItemRecord, patch: ContactListItemPatch) {
  const set = updateExpression({ ...patch, search: searchText(after), updatedAt: after.updatedAt });
  return {
    TableName: table(),
    Key: itemKey(before.companyId, before.id),
    ...set,
    ConditionExpression: 'attribute_exists(pk) AND #number = :before',
    ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#number': 'number' },
    ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':before': before.number },
  };
}

/** Edits `before` (as read): a new number moves its claim in the list, on condition nobody holds it. */
export async function updateContactListItem(before: ContactListItemRecord, patch: ContactListItemPatch): Promise<ContactListItemRecord> {
  const { companyId, contactListId } = before;
  const after: ContactListItemRecord = { ...before, ...patch, updatedAt: new Date().toISOString() };
  const put = {
    TableName: table(),
    Item: stored(after),
    // The number it had is the claim this write moves: an edit racing another edit of it fails.
    ConditionExpression: 'attribute_exists(pk) AND #number = :before',
    ExpressionAttributeNames: { '#number': 'number' },
    ExpressionAttributeValues: { ':before': before.number },
  };
  try {
    // Same number: only the fields edited, so the engine's verdict written meanwhile stays.
    if (after.number === before.number)
      await db().send(new TransactWriteCommand({ TransactItems: [{ Update: sameNumberUpdate(before, after, patch) }] }));
    else
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: put },
            {
              Put: {
                TableName: table(),
                Item: { ...numberKey(companyId, contactListId, after.number), entity: 'contactListNumber', itemId: after.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Delete: { TableName: table(), Key: numberKey(companyId, contactListId, before.number) } },
          ],
        }),
      );
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[1] === 'ConditionalCheckFailed') throw new ConflictError('ERR_DUPLICATED_CONTACT', { field: 'number' });
    if (codes?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
  return after;
}

/** The list's item holding `number` (digits), through its number claim; undefined when none. */
export async function contactListItemByNumber(
  companyId: number,
  contactListId: number,
  number: string,
): Promise<ContactListItemRecord | undefined> {
  const key = numberKey(companyId, contactListId, number);
  const claim = await getItem<{ itemId: number }>(key.pk, key.sk);
  return claim ? getContactListItem(companyId, claim.itemId) : undefined;
}

/** Removes the item and its number's claim, one less in the list's count. */
export async function deleteContactListItem(record: ContactListItemRecord): Promise<void> {
  const { companyId, contactListId } = record;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: itemKey(companyId, record.id), ConditionExpression: 'attribute_exists(pk)' } },
          { Delete: { TableName: table(), Key: numberKey(companyId, contactListId, record.number) } },
          countMove(companyId, contactListId, -1),
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.some((code) => code === 'ConditionalCheckFailed')) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

/**
 * WhatsApp's verdict on the number (null = not checked). With `number`, only while the item still has
 * that number: a verdict on a number edited meanwhile is not the new number's. The item may have
 * been deleted or renumbered meanwhile: then nothing, and false.
 */
export async function setWhatsappValid(companyId: number, id: number, valid: boolean | null, number?: string): Promise<boolean> {
  const unchecked = { gsi2pk: uncheckedPartition(companyId), gsi2sk: pad(id) };
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: itemKey(companyId, id),
        UpdateExpression:
          valid === null
            ? 'SET isWhatsappValid = :valid, gsi2pk = :gpk, gsi2sk = :gsk'
            : 'SET isWhatsappValid = :valid REMOVE gsi2pk, gsi2sk',
        ConditionExpression: number === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #number = :number',
        ...(number === undefined ? {} : { ExpressionAttributeNames: { '#number': 'number' } }),
        ExpressionAttributeValues: {
          ':valid': valid,
          ...(valid === null ? { ':gpk': unchecked.gsi2pk, ':gsk': unchecked.gsi2sk } : {}),
          ...(number === undefined ? {} : { ':number': number }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** An item whose number is not checked yet. */
export interface UncheckedNumber {
  itemId: number;
  contactListId: number;
  number: string;
}

/** Up to `limit` of the company's unchecked numbers after item `afterId` (0: from the first), oldest first. */
export async function listUncheckedNumbers(companyId: number, limit: number, afterId = 0): Promise<UncheckedNumber[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk > :after',
      ExpressionAttributeValues: { ':pk': uncheckedPartition(companyId), ':after': pad(afterId) },
      ProjectionExpression: 'id, contactListId, #number',
      ExpressionAttributeNames: { '#number': 'number' },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => ({
    itemId: Number(item.id),
    contactListId: Number(item.contactListId),
    number: String(item.number),
  }));
}

export interface ItemPageQuery {
  contactListId: number;
  /** Folded text a row's name, number or email must contain; '' for every row. */
  needle: string;
  limit: number;
  cursor?: string;
}

export interface ItemPage {
  items: ContactListItemRecord[];
  cursor?: string;
}

/** The cursor is sealed for the tenant, the list and the search: it continues that page only. */
const pageScope = (companyId: number, query: ItemPageQuery) => scopeOf('contact-list-items', companyId, query.contactListId, query.needle);

/** A page of a list's items in the order they were added. */
export async function listContactListItemsPage(companyId: number, query: ItemPageQuery): Promise<ItemPage> {
  const scope = pageScope(companyId, query);
  const partition = listPartition(companyId, query.contactListId);
  let start: Record<string, unknown> | undefined;
  if (query.cursor) {
    const position = await openCursor(scope, query.cursor);
    if (!Number.isSafeInteger(position) || (position as number) < 1) throw new InvalidCursorError();
    // The key is rebuilt here, inside this list's partition: a cursor never points anywhere else.
    start = { ...itemKey(companyId, position as number), gsi1pk: partition, gsi1sk: pad(position as number) };
  }
  const items: ContactListItemRecord[] = [];
  for (let read = 0; read < (query.needle ? FILTERED_READS : 1); read++) {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition, ...(query.needle ? { ':needle': query.needle } : {}) },
        ...(query.needle ? { FilterExpression: 'contains(#search, :needle)', ExpressionAttributeNames: { '#search': 'search' } } : {}),
        Limit: query.limit - items.length,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) items.push(fromStored(item));
    start = out.LastEvaluatedKey;
    if (!start || items.length >= query.limit) break;
  }
  const position = start ? Number(String(start.gsi1sk)) : undefined;
  return { items, cursor: position ? await sealCursor(scope, position) : undefined };
}

/** After the list record is gone: every item and number claim of the list, 25 a request. */
export async function purgeContactListItems(companyId: number, contactListId: number): Promise<number> {
  let removed = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': listPartition(companyId, contactListId) },
        ProjectionExpression: 'pk, sk, #number',
        ExpressionAttributeNames: { '#number': 'number' },
        ExclusiveStartKey,
      }),
    );
    const keys = (out.Items ?? []).flatMap((item) => [
      { pk: String(item.pk), sk: String(item.sk) },
      numberKey(companyId, contactListId, String(item.number)),
    ]);
    await deleteKeys(keys);
    removed += out.Items?.length ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return removed;
}

async function deleteKeys(keys: { pk: string; sk: string }[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed deletes');
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}

/**
 * The campaign engine's walk: up to `limit` of a list's items after item `afterId` (0: from the
 * start), in the order they were added, and whether the list goes on past them.
 */
export async function contactListItemsAfter(
  companyId: number,
  contactListId: number,
  afterId: number,
  limit: number,
): Promise<{ items: ContactListItemRecord[]; more: boolean }> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :after',
      ExpressionAttributeValues: { ':pk': listPartition(companyId, contactListId), ':after': pad(afterId) },
      Limit: limit,
    }),
  );
  return { items: (out.Items ?? []).map(fromStored), more: Boolean(out.LastEvaluatedKey) };
}

/** How many of a list's items are valid (not known to be off WhatsApp) and invalid, for a campaign's report. */
export async function countContactListItems(companyId: number, contactListId: number): Promise<{ valid: number; invalid: number }> {
  let valid = 0;
  let invalid = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': listPartition(companyId, contactListId) },
        ProjectionExpression: 'isWhatsappValid',
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? [])
      if (item.isWhatsappValid === false) invalid++;
      else valid++;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { valid, invalid };
}
