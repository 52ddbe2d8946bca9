/**
 * Reading the search index (search-index.ts): the hits of a word prefix, in index order (the word,
 * then newest ticket / contact id), `limit` items a Query, continuing after the last key consumed.
 * Message words (`M`) of a tenant with list shards are in one partition a shard: each shard is read
 * (in parallel, `limit` items each) and their hits merged in key order, up to the lowest last key of
 * a shard not read to its end (past it, that shard may hold keys not read yet).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from './db.ts';
import { contactIdOfSearchSk, type SearchKind, searchPartition, searchPrefix, ticketIdOfSearchSk } from './search-index.ts';

export interface SearchHit {
  sk: string;
  /** A ticket id (N, M) or a contact id (C). */
  id: number;
}

type Read = { items: SearchHit[]; exhausted: boolean };

/** DynamoDB orders sort keys by their UTF-8 bytes. */
const byKey = (a: SearchHit, b: SearchHit) => Buffer.compare(Buffer.from(a.sk), Buffer.from(b.sk));

async function readPartition(pk: string, kind: SearchKind, prefix: string, limit: number, afterSk: string | undefined): Promise<Read> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ProjectionExpression: 'sk',
      Limit: limit,
      ExclusiveStartKey: afterSk ? { pk, sk: afterSk } : undefined,
    }),
  );
  const idOf = kind === 'C' ? contactIdOfSearchSk : ticketIdOfSearchSk;
  return {
    items: (out.Items ?? []).map((item) => ({ sk: String(item.sk), id: idOf(String(item.sk)) })),
    exhausted: !out.LastEvaluatedKey,
  };
}

export async function readSearchHits(
  companyId: number,
  kind: SearchKind,
  word: string,
  options: { limit: number; afterSk?: string; shards?: number },
): Promise<Read> {
  const prefix = searchPrefix(kind, word);
  // A cursor is only ever followed inside this term's own key range.
  const afterSk = options.afterSk?.startsWith(prefix) ? options.afterSk : undefined;
  const shards = kind === 'M' ? Math.max(1, options.shards ?? 1) : 1;
  if (shards === 1) return readPartition(searchPartition(companyId, word), kind, prefix, options.limit, afterSk);
  const reads = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      readPartition(searchPartition(companyId, word, shard), kind, prefix, options.limit, afterSk),
    ),
  );
  let bound: SearchHit | undefined;
  for (const read of reads) {
    const last = read.items.at(-1);
    if (!read.exhausted && last && (!bound || byKey(last, bound) < 0)) bound = last;
  }
  const items = reads
    .flatMap((read) => read.items)
    .filter((hit) => !bound || byKey(hit, bound) <= 0)
    .sort(byKey);
  // Every shard read to its end: nothing was held back past a bound.
  return { items, exhausted: reads.every((read) => read.exhausted) };
}
