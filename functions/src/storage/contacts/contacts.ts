/**
 * Contacts of a company. A tenant may hold 100k+ contacts, so each contact has its own partition
 * (its item collection also holds its ticket slots and ticket links, see tickets/tickets.ts).
 *
 *   contact        pk = C#<cid>#CT#<padded id>        sk = CONTACT
 *                  gsi1pk = C#<cid>#CONTACTS           gsi1sk = <lower-case name>#<padded id>
 *                      -> the contacts page in name order, and name-prefix search, one Query a page
 *                  gsi2pk = C#<cid>#CONTACTS#NUM       gsi2sk = <digits>
 *                      -> number-prefix search (the contacts search box), one Query a page
 *   number guard   pk = C#<cid>#CTNUM#<digits>        sk = GUARD   { contactId }
 *                      -> (tenant, number digits) is unique: the guard is written in the same
 *                         transaction as the contact, so 50 concurrent first messages from one
 *                         number make one contact; it is also the strongly consistent
 *                         number -> contact lookup the inbound pipeline reads (a GSI could lag).
 *   search words   search-index.ts C items, one per word of the name and one for the number:
 *                      written, moved and deleted in the contact's own transactions
 *
 * Denormalisation: tickets copy the contact's {name, number, profilePicUrl} so a ticket page needs no
 * contact reads; `updateContact` refreshes that copy on the contact's tickets (its ticket links).
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Contact } from '#contracts/contacts';
import { getItemBatched } from '../batch-get.ts';
import { contactCounterItems } from '../dashboard-counters.ts';
import {
  db,
  getItem,
  isConditionalCheckFailed,
  stripKeys,
  type TransactItem,
  table,
  transactionCancellationCodes,
  updateExpression,
} from '../db.ts';
import { contactSearchItems, contactSearchKey, contactWords } from '../search-index.ts';
import { pad, tenantPk } from '../table.ts';

export type ContactRecord = Contact;
export type ContactPatch = Partial<Pick<ContactRecord, 'name' | 'email' | 'profilePicUrl' | 'extraInfo' | 'number'>>;

export const contactPk = (companyId: number, contactId: number): string => `${tenantPk(companyId)}#CT#${pad(contactId)}`;
const CONTACT_SK = 'CONTACT';
export const contactKey = (companyId: number, contactId: number) => ({ pk: contactPk(companyId, contactId), sk: CONTACT_SK });
const numberGuardKey = (companyId: number, digits: string) => ({ pk: `${tenantPk(companyId)}#CTNUM#${digits}`, sk: 'GUARD' });

/** Name order ignores case and accents, as the contacts page sorts. */
const nameSortKey = (name: string, id: number) =>
  `${name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim()}#${pad(id)}`;

function indexKeys(contact: Pick<ContactRecord, 'companyId' | 'id' | 'name' | 'number'>) {
  return {
    gsi1pk: `${tenantPk(contact.companyId)}#CONTACTS`,
    gsi1sk: nameSortKey(contact.name, contact.id),
    gsi2pk: `${tenantPk(contact.companyId)}#CONTACTS#NUM`,
    gsi2sk: contact.number,
  };
}

export const getContact = (companyId: number, contactId: number): Promise<ContactRecord | undefined> =>
  getItem<ContactRecord>(contactPk(companyId, contactId), CONTACT_SK);

/**
 * Strongly consistent, through the number guard. Both reads go out with the other point reads of
 * their turn (batch-get.ts): the inbound pipeline asks for a number's contact beside its dedupe link.
 */
export async function getContactByNumber(companyId: number, digits: string): Promise<ContactRecord | undefined> {
  const guard = await getItemBatched<{ contactId: number }>(numberGuardKey(companyId, digits));
  return guard ? getItemBatched<ContactRecord>(contactKey(companyId, guard.contactId)) : undefined;
}

/** Every item a created contact stores (createContact's writes, without their conditions), for direct loaders. */
export const contactStoredItems = (record: ContactRecord): Record<string, unknown>[] => [
  { ...numberGuardKey(record.companyId, record.number), entity: 'contactNumberGuard', contactId: record.id },
  { ...contactKey(record.companyId, record.id), ...indexKeys(record), entity: 'contact', ...record },
  ...contactSearchItems(record.companyId, record),
];

/**
 * Creates the contact unless its number is taken. Returns the stored contact, or `{ existing }`
 * with the contact id that holds the number (the caller decides: reuse, or ERR_DUPLICATED_CONTACT).
 */
export async function createContact(record: ContactRecord): Promise<{ created: ContactRecord } | { existingId: number }> {
  try {
    await db().send(
      // The dashboard's new-contacts counter after the guard, so the guard's index stays 0.
      new TransactWriteCommand({ TransactItems: [...contactCreateItems(record), ...(await contactCounterItems(record))] }),
    );
    return { created: record };
  } catch (error) {
    const existingId = transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed' && (await numberHolder(record));
    if (existingId) return { existingId };
    throw error;
  }
}

/**
 * A new contact's writes without its counter (contactCounterDeltas): the number guard first (index
 * 0: a number taken meanwhile fails there, see numberHolder), the contact, its search words.
 */
export function contactCreateItems(record: ContactRecord): TransactItem[] {
  return [
    {
      Put: {
        TableName: table(),
        Item: { ...numberGuardKey(record.companyId, record.number), entity: 'contactNumberGuard', contactId: record.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: table(),
        Item: { ...contactKey(record.companyId, record.id), ...indexKeys(record), entity: 'contact', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...contactSearchItems(record.companyId, record).map((Item) => ({ Put: { TableName: table(), Item } })),
  ];
}

/** The id of the contact whose guard holds `record`'s number (after a create that failed at the guard), if any. */
async function numberHolder(record: Pick<ContactRecord, 'companyId' | 'number'>): Promise<number | undefined> {
  const guard = await getItem<{ contactId: number }>(numberGuardKey(record.companyId, record.number).pk, 'GUARD');
  return guard?.contactId;
}

/**
 * Partial update. Moving the number moves its guard in the same transaction (ERR_DUPLICATED_CONTACT
 * when taken). The tickets' copy of {name, number, profilePicUrl} is refreshed by the caller through
 * refreshTicketContact in tickets/contact-copy.ts (the contact's ticket links bound that work).
 */
export async function updateContact(companyId: number, contactId: number, patch: ContactPatch, attempt = 0): Promise<ContactRecord> {
  const current = await getContact(companyId, contactId);
  if (!current) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  const next: ContactRecord = { ...current, ...definedOnly(patch), updatedAt: new Date().toISOString() };
  const update = updateExpression({ ...definedOnly(patch), updatedAt: next.updatedAt, ...indexKeys(next) });
  const wordsBefore = contactWords(current);
  const wordsAfter = contactWords(next);
  const wordWrites = [
    ...wordsBefore
      .filter((word) => !wordsAfter.includes(word))
      .map((word) => ({ Delete: { TableName: table(), Key: contactSearchKey(companyId, word, contactId) } })),
    ...contactSearchItems(companyId, next)
      .filter((item) => !wordsBefore.some((word) => item.sk === contactSearchKey(companyId, word, contactId).sk))
      .map((Item) => ({ Put: { TableName: table(), Item } })),
  ];
  if (next.number === current.number && wordWrites.length) {
    // A rename: the contact and its search words in one transaction, on condition the name read is current.
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table(),
                Key: contactKey(companyId, contactId),
                ...update,
                ConditionExpression: 'attribute_exists(pk) AND #name = :oldName',
                ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#name': 'name' },
                ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':oldName': current.name },
              },
            },
            ...wordWrites,
          ],
        }),
      );
    } catch (error) {
      // Renamed meanwhile: its words moved too, start again from the current name.
      if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed' && attempt < 3)
        return updateContact(companyId, contactId, patch, attempt + 1);
      throw error;
    }
    return next;
  }
  if (next.number === current.number) {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: contactKey(companyId, contactId),
          ...update,
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<ContactRecord>(out.Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
      throw error;
    }
  }
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: contactKey(companyId, contactId),
              ...update,
              ConditionExpression: 'attribute_exists(pk) AND #num = :oldNumber',
              ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#num': 'number' },
              ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':oldNumber': current.number },
            },
          },
          { Delete: { TableName: table(), Key: numberGuardKey(companyId, current.number) } },
          {
            Put: {
              TableName: table(),
              Item: { ...numberGuardKey(companyId, next.number), entity: 'contactNumberGuard', contactId },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...wordWrites,
        ],
      }),
    );
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[2] === 'ConditionalCheckFailed') throw new ConflictError('ERR_DUPLICATED_CONTACT');
    if (codes?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    throw error;
  }
  return next;
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Search key of a name prefix: the same normalisation as the name index's sort key. */
export const nameSearchKey = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

export const contactIndexPartitions = (companyId: number) => ({
  byName: `${tenantPk(companyId)}#CONTACTS`,
  byNumber: `${tenantPk(companyId)}#CONTACTS#NUM`,
});

/**
 * Deletes the contact and its number guard in one transaction, on condition that every ticket slot
 * of the contact listed in `slotSks` is still released (`active = false`): a ticket opened since the
 * caller looked makes this fail with ERR_OTHER_OPEN_TICKET instead of orphaning it. The guard goes
 * only if it still names this contact. Items left in the contact partition (released slots, ticket
 * links) are removed by the caller afterwards; they name no live contact.
 */
export async function deleteContact(
  companyId: number,
  contact: Pick<ContactRecord, 'id' | 'name' | 'number'>,
  slotSks: string[],
): Promise<void> {
  const pk = contactPk(companyId, contact.id);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: contactKey(companyId, contact.id), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Delete: {
              TableName: table(),
              Key: numberGuardKey(companyId, contact.number),
              ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
              ExpressionAttributeValues: { ':id': contact.id },
            },
          },
          ...contactWords(contact).map((word) => ({ Delete: { TableName: table(), Key: contactSearchKey(companyId, word, contact.id) } })),
          ...slotSks.map((sk) => ({
            ConditionCheck: {
              TableName: table(),
              Key: { pk, sk },
              ConditionExpression: 'active = :released',
              ExpressionAttributeValues: { ':released': false },
            },
          })),
        ],
      }),
    );
  } catch (error) {
    const codes = transactionCancellationCodes(error);
    if (codes?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    if (codes?.some((code) => code === 'ConditionalCheckFailed')) throw new ConflictError('ERR_OTHER_OPEN_TICKET');
    throw error;
  }
}
