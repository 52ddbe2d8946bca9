/**
 * The reads behind a campaign's tag audience (domain/campaigns/audience.ts): "the contacts carrying
 * a tag" are the contacts of the tickets carrying it, since tags are put on tickets (storage/tags.ts
 * "tag link"). A tag's walk reads its links in ticket order, then those tickets' contact ids, then
 * the contacts themselves (name, number, email as they are now): three requests a batch, whatever
 * its size, and no write: nothing is copied when a campaign starts.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ContactRecord, contactKey } from '../contacts/contacts.ts';
import { db, stripKeys, table } from '../db.ts';
import { pad, tenantPk } from '../table.ts';
import { tagLinkKey } from '../tickets/list-keys.ts';
import { ticketKey } from '../tickets/tickets.ts';

const MAX_KEYS = 100;

/** Every item of `keys` that exists (BatchGetItem by 100, unprocessed keys asked again), in no order. */
async function batchGet(keys: { pk: string; sk: string }[], projection?: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += MAX_KEYS) {
    let request: Record<string, { Keys: Record<string, unknown>[]; ProjectionExpression?: string }> | undefined = {
      [table()]: { Keys: keys.slice(i, i + MAX_KEYS), ...(projection ? { ProjectionExpression: projection } : {}) },
    };
    while (request && Object.keys(request).length) {
      const out = await db().send(new BatchGetCommand({ RequestItems: request }));
      found.push(...(out.Responses?.[table()] ?? []));
      request = out.UnprocessedKeys as typeof request;
    }
  }
  return found;
}

export interface TagLinksPage {
  /** The tickets' ids in the order walked. */
  ticketIds: number[];
  more: boolean;
}

/** Up to `limit` tickets carrying the tag after ticket `afterTicketId` (0: from the start). */
export async function tagTicketsAfter(companyId: number, tagId: number, afterTicketId: number, limit: number): Promise<TagLinksPage> {
  const first = tagLinkKey(companyId, tagId, afterTicketId);
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: { ':pk': first.pk, ':after': first.sk },
      ProjectionExpression: 'ticketId',
      Limit: limit,
    }),
  );
  return { ticketIds: (out.Items ?? []).map((item) => Number(item.ticketId)), more: Boolean(out.LastEvaluatedKey) };
}

/** Every ticket carrying the tag (the count at a campaign's start). */
export async function allTagTickets(companyId: number, tagId: number): Promise<number[]> {
  const ids: number[] = [];
  let after = 0;
  for (;;) {
    const page = await tagTicketsAfter(companyId, tagId, after, 1000);
    ids.push(...page.ticketIds);
    if (!page.more || !page.ticketIds.length) return ids;
    after = page.ticketIds.at(-1) as number;
  }
}

/** The contact id of each ticket (a ticket gone meanwhile has none). */
export async function ticketContactIds(companyId: number, ticketIds: number[]): Promise<Map<number, number>> {
  const items = await batchGet(
    ticketIds.map((id) => ticketKey(companyId, id)),
    'id, contactId',
  );
  return new Map(items.map((item) => [Number(item.id), Number(item.contactId)]));
}

export async function getContacts(companyId: number, contactIds: number[]): Promise<Map<number, ContactRecord>> {
  const items = await batchGet([...new Set(contactIds)].map((id) => contactKey(companyId, id)));
  return new Map(items.map((item) => stripKeys<ContactRecord>(item)).map((contact) => [contact.id, contact]));
}

/**
 * Which of `numbers` are in the contact list: its one item per number, `pk = C#<cid>#CL#<padded
 * listId>, sk = NUM#<digits>` (storage/contact-lists/items.ts "number").
 */
export async function numbersInList(companyId: number, contactListId: number, numbers: string[]): Promise<Set<string>> {
  const pk = `${tenantPk(companyId)}#CL#${pad(contactListId)}`;
  const items = await batchGet(
    [...new Set(numbers)].filter(Boolean).map((number) => ({ pk, sk: `NUM#${number}` })),
    'sk',
  );
  return new Set(items.map((item) => String(item.sk).slice('NUM#'.length)));
}
