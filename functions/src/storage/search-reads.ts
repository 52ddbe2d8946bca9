/**
 * Reading the search index (search-index.ts): the hits of a word prefix, in index order (the word,
 * then newest ticket / contact id), `limit` items a Query, continuing after the last key consumed.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from './db.ts';
import { contactIdOfSearchSk, type SearchKind, searchPartition, searchPrefix, ticketIdOfSearchSk } from './search-index.ts';

export interface SearchHit {
  sk: string;
  /** A ticket id (N, M) or a contact id (C). */
  id: number;
}

export async function readSearchHits(
  companyId: number,
  kind: SearchKind,
  word: string,
  options: { limit: number; afterSk?: string },
): Promise<{ items: SearchHit[]; exhausted: boolean }> {
  const pk = searchPartition(companyId, word);
  const prefix = searchPrefix(kind, word);
  // A cursor is only ever followed inside this term's own key range.
  const afterSk = options.afterSk?.startsWith(prefix) ? options.afterSk : undefined;
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ProjectionExpression: 'sk',
      Limit: options.limit,
      ExclusiveStartKey: afterSk ? { pk, sk: afterSk } : undefined,
    }),
  );
  const idOf = kind === 'C' ? contactIdOfSearchSk : ticketIdOfSearchSk;
  return {
    items: (out.Items ?? []).map((item) => ({ sk: String(item.sk), id: idOf(String(item.sk)) })),
    exhausted: !out.LastEvaluatedKey,
  };
}
