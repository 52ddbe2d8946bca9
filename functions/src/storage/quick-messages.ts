/**
 * Quick messages (SPEC 3 "Quick message"): a tenant's canned replies, a small set per company.
 *
 *   quick message  pk = C#<cid>   sk = QM#<padded id>   { id, shortcode, message, geral, status, isMedia, mediaPath, mediaName, userId }
 *                  -> one Query reads the tenant's set; `mediaPath` is the media bucket key (`<cid>/quick-messages/...`)
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface QuickMessageRecord {
  id: number;
  companyId: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  /** Bucket key, '' without media. */
  mediaPath: string;
  mediaName: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
}
export type QuickMessagePatch = Partial<
  Pick<QuickMessageRecord, 'shortcode' | 'message' | 'geral' | 'status' | 'isMedia' | 'mediaPath' | 'mediaName'>
>;

const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `QM#${pad(id)}` });

export const newQuickMessageId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'QUICK_MESSAGE');

export const getQuickMessage = (companyId: number, id: number): Promise<QuickMessageRecord | undefined> =>
  getItem<QuickMessageRecord>(key(companyId, id).pk, key(companyId, id).sk);

export const listQuickMessages = (companyId: number): Promise<QuickMessageRecord[]> =>
  queryAll<QuickMessageRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'QM#' },
  });

export async function createQuickMessage(record: QuickMessageRecord): Promise<QuickMessageRecord> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { ...key(record.companyId, record.id), entity: 'quickMessage', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

export async function updateQuickMessage(companyId: number, id: number, patch: QuickMessagePatch): Promise<QuickMessageRecord> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(companyId, id),
        ...updateExpression({ ...patch, updatedAt: new Date().toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<QuickMessageRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

export async function deleteQuickMessage(companyId: number, id: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, id) }));
}
