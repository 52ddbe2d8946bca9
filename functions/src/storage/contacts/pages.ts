/**
 * Pages of a tenant's contacts for the contacts page (GET /contacts), over the indexes contacts/contacts.ts
 * keeps: name order (gsi1), and the search index (search-index.ts C items: any word of the name, or
 * the number, by prefix). A page is one Query of `limit` items (plus, for a search, one BatchGet of
 * the contacts it names); a date filter or a multi-word term reads at most FILTERED_READS batches
 * before answering with what it found and a cursor, so a page's cost never grows with the tenant.
 *
 * Cursors are sealed (cursors.ts) for the tenant, the list (`list`: which route pages) and its
 * filters; the position inside (the index sort key and contact id, or the search key) is rebuilt
 * into the ExclusiveStartKey here, within the query's own partition and range.
 */
import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidCursorError, openCursor, scopeOf, sealCursor } from '../cursors.ts';
import { db, stripKeys, table } from '../db.ts';
import { contactWords, searchPrefix, termWords } from '../search-index.ts';
import { readSearchHits } from '../search-reads.ts';
import { type ContactRecord, contactIndexPartitions, contactKey, contactPk } from './contacts.ts';

export const FILTERED_READS = 5;

export interface ContactPageQuery {
  /** Name prefix (normalised as the index) or digits prefix. */
  prefix?: { by: 'name' | 'number'; value: string };
  /** Inclusive ISO bounds on createdAt. */
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  /** Which list pages (GET /contacts, the export, the pickers): a cursor continues only its own. */
  list: 'page' | 'export' | 'picker';
  cursor?: string;
}

export interface ContactPage {
  contacts: ContactRecord[];
  cursor?: string;
}

async function getContacts(companyId: number, ids: number[]): Promise<ContactRecord[]> {
  if (!ids.length) return [];
  const found = new Map<number, ContactRecord>();
  // BatchGetItem takes at most 100 keys a request.
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let keys: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => contactKey(companyId, id));
    for (let attempt = 0; keys.length; attempt++) {
      if (attempt > 8) throw new Error('BatchGet left unprocessed keys');
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      const out = await db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys } } }));
      for (const item of out.Responses?.[table()] ?? []) {
        const contact = stripKeys<ContactRecord>(item);
        found.set(contact.id, contact);
      }
      keys = out.UnprocessedKeys?.[table()]?.Keys ?? [];
    }
  }
  return ids.flatMap((id) => (found.has(id) ? [found.get(id) as ContactRecord] : []));
}

/** A search page: the term's longest word through the index, the other words and dates on the contacts read. */
async function searchContactsPage(companyId: number, term: string, query: ContactPageQuery): Promise<ContactPage> {
  const [primary, ...others] = termWords(term) as [string, ...string[]];
  const narrowed = others.length > 0 || Boolean(query.createdFrom || query.createdTo);
  const wanted = (contact: ContactRecord) =>
    (!query.createdFrom || contact.createdAt >= query.createdFrom) &&
    (!query.createdTo || contact.createdAt <= query.createdTo) &&
    others.every((word) => contactWords(contact).some((own) => own.startsWith(word)));
  const contacts: ContactRecord[] = [];
  const scope = pageScope(companyId, query);
  let afterSk: string | undefined;
  if (query.cursor) {
    const position = await openCursor(scope, query.cursor);
    // null: the search had read nothing yet.
    if (position !== null && (typeof position !== 'string' || !position.startsWith(searchPrefix('C', primary))))
      throw new InvalidCursorError();
    afterSk = position ?? undefined;
  }
  let more = true;
  for (let read = 0; more && contacts.length < query.limit && read < (narrowed ? FILTERED_READS : 1); read++) {
    const hits = await readSearchHits(companyId, 'C', primary, { limit: query.limit - contacts.length, afterSk });
    for (const contact of await getContacts(
      companyId,
      hits.items.map((hit) => hit.id),
    ))
      if (wanted(contact) && !contacts.some((listed) => listed.id === contact.id)) contacts.push(contact);
    afterSk = hits.items.at(-1)?.sk ?? afterSk;
    more = !hits.exhausted;
  }
  return { contacts, cursor: more ? await sealCursor(scope, afterSk ?? null) : undefined };
}

/** Everything that decides what a page lists: a cursor made under one scope does not open under another. */
const pageScope = (companyId: number, query: ContactPageQuery): string =>
  scopeOf('contacts', companyId, query.list, query.prefix, query.createdFrom, query.createdTo);

/** Index position: the sort key of the last row read and its contact (the table key of an index row). */
type IndexPosition = [sortKey: string, contactId: number];

function startKey(companyId: number, index: 'gsi1' | 'gsi2', partition: string, prefix: string | undefined, position: unknown) {
  if (!Array.isArray(position) || position.length !== 2) throw new InvalidCursorError();
  const [sortKey, contactId] = position as IndexPosition;
  if (typeof sortKey !== 'string' || !Number.isSafeInteger(contactId) || contactId < 1) throw new InvalidCursorError();
  if (prefix && !sortKey.startsWith(prefix)) throw new InvalidCursorError();
  return { ...contactKey(companyId, contactId), [`${index}pk`]: partition, [`${index}sk`]: sortKey };
}

const contactIdOfPk = (pk: string): number => Number(pk.slice(pk.lastIndexOf('#') + 1));

export async function listContactsPage(companyId: number, query: ContactPageQuery): Promise<ContactPage> {
  if (query.prefix?.value && termWords(query.prefix.value).length) return searchContactsPage(companyId, query.prefix.value, query);
  const partitions = contactIndexPartitions(companyId);
  const byNumber = query.prefix?.by === 'number';
  const index = byNumber ? 'gsi2' : 'gsi1';
  const partition = byNumber ? partitions.byNumber : partitions.byName;
  const values: Record<string, unknown> = { ':pk': partition };
  let condition = `${index}pk = :pk`;
  if (query.prefix?.value) {
    condition += ` AND begins_with(${index}sk, :prefix)`;
    values[':prefix'] = query.prefix.value;
  }
  const filters: string[] = [];
  if (query.createdFrom) {
    filters.push('createdAt >= :from');
    values[':from'] = query.createdFrom;
  }
  if (query.createdTo) {
    filters.push('createdAt <= :to');
    values[':to'] = query.createdTo;
  }
  const contacts: ContactRecord[] = [];
  const scope = pageScope(companyId, query);
  let start: Record<string, unknown> | undefined = query.cursor
    ? startKey(companyId, index, partition, query.prefix?.value, await openCursor(scope, query.cursor))
    : undefined;
  for (let read = 0; read < (filters.length ? FILTERED_READS : 1); read++) {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: index,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        Limit: query.limit - contacts.length,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) contacts.push(stripKeys<ContactRecord>(item));
    start = out.LastEvaluatedKey;
    if (!start || contacts.length >= query.limit) break;
  }
  const position: IndexPosition | undefined = start && [String(start[`${index}sk`]), contactIdOfPk(String(start.pk))];
  return { contacts, cursor: position && (await sealCursor(scope, position)) };
}

/** Sort keys of a contact's ticket slots and ticket links (bounded by that contact's tickets). */
export async function contactPartitionItems(companyId: number, contactId: number): Promise<{ sk: string; active?: boolean }[]> {
  const items: { sk: string; active?: boolean }[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': contactPk(companyId, contactId) },
        ProjectionExpression: 'sk, active',
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) items.push({ sk: String(item.sk), active: item.active as boolean | undefined });
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Removes what is left of a deleted contact's partition (released slots, ticket links). */
export async function purgeContactPartition(companyId: number, contactId: number, sks: string[]): Promise<void> {
  const pk = contactPk(companyId, contactId);
  for (let i = 0; i < sks.length; i += 25) {
    let requests = sks.slice(i, i + 25).map((sk) => ({ DeleteRequest: { Key: { pk, sk } } }));
    for (let attempt = 0; requests.length && attempt < 8; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}
