/**
 * A tenant's small set of one kind of record (quick messages, AI prompts, queue integrations...):
 *
 *   record  pk = C#<cid>   sk = <PREFIX>#<padded id>   { the record }
 *           -> one Query reads the tenant's set; ids are per company (a counter per kind)
 *
 * Create is conditional on a new key; update on an existing one (404 otherwise); delete is idempotent.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from './db.ts';
import { pad, tenantPk } from './table.ts';

export interface TenantRecord {
  companyId: number;
  id: number;
}

export interface TenantRecords<T extends TenantRecord, P> {
  newId(companyId: number): Promise<number>;
  get(companyId: number, id: number): Promise<T | undefined>;
  list(companyId: number): Promise<T[]>;
  create(record: T): Promise<T>;
  /** The record as stored after the patch (updatedAt set now); NotFoundError when there is none. */
  update(companyId: number, id: number, patch: P): Promise<T>;
  remove(companyId: number, id: number): Promise<void>;
}

export function tenantRecords<T extends TenantRecord, P extends object>(kind: {
  /** The sort key's prefix (`QM`, `PROMPT`...). */
  prefix: string;
  /** The id counter's name. */
  counter: string;
  /** The item's `entity` attribute. */
  entity: string;
}): TenantRecords<T, P> {
  const key = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `${kind.prefix}#${pad(id)}` });
  return {
    newId: (companyId) => nextId(tenantPk(companyId), kind.counter),
    get: (companyId, id) => getItem<T>(tenantPk(companyId), key(companyId, id).sk),
    list: (companyId) =>
      queryAll<T>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': `${kind.prefix}#` },
      }),
    async create(record) {
      await db().send(
        new PutCommand({
          TableName: table(),
          Item: { ...key(record.companyId, record.id), entity: kind.entity, ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return record;
    },
    async update(companyId, id, patch) {
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
        return stripKeys<T>(out.Attributes ?? {});
      } catch (error) {
        if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NOT_FOUND');
        throw error;
      }
    },
    async remove(companyId, id) {
      await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, id) }));
    },
  };
}
